import { z } from 'zod';
import { imageCompleteBody, imageCompleteReply } from '../../../shared/tickets.schemas';
import { UPLOAD_ACTION } from '../../../shared/uploads';
import type { App, AppContext } from '../../context';
import { badRequest } from '../../errors';
import { registerMultipart } from '../../plugins/multipart';
import { CHECKED_IN_HANDLER } from '../../plugins/routes';
import { completeImageUpload } from '../tickets/images.service';
import * as service from './uploads.service';

const fileQuery = {
  fileName: z.string().max(1000).optional().describe('the name of the file on the user\'s device'),
  fileType: z.string().max(255).optional().describe('its MIME type as the browser reports it ("" is allowed: the extension decides)'),
  fileSize: z.string().max(20).optional().describe('its size in bytes; when given, the upload must be exactly this size'),
};
const signedReply = z.object({
  signedRequest: z
    .string()
    .describe('An absolute URL: PUT the file\'s bytes to it, with `headers`, within 15 minutes, once (see `PUT /files/{key}`; another storage, such as S3, signs its own URL).'),
  url: z.string().describe('Where the file will be: send it in the record you save next (a job\'s work_packet_url, a ticket\'s dig_safe_url, a photo\'s url).'),
  headers: z.record(z.string(), z.string()).describe('The headers the PUT must carry, exactly (Content-Type).'),
  maxBytes: z.number().describe('The largest file the PUT may send, in bytes.'),
});
const responses = { 200: signedReply };

/**
 * Signed uploads (docs/product/api.md §6 Uploads, docs/product/api.md §1): the browser asks for a URL, PUTs the file there
 * with `headers`, and keeps `url` for the record it saves next; a photo is then recorded on its
 * ticket with POST /media_upload/s3-upload-complete (the work is the tickets module's images.service).
 */
export async function uploadRoutes(app: App, ctx: AppContext) {
  app.get(
    '/doc_upload/sign-s3-pdf',
    {
      // The kind of file, read from the query, decides the permission (UPLOAD_ACTION). The
      // handler words the refusal of a missing directory or name (UPLOAD_MSG), so the schema lets
      // them be absent and the document says they are required.
      config: { allow: CHECKED_IN_HANDLER, openapi: { requiredQuery: ['directory', 'fileName', 'fileType'] } },
      schema: {
        tags: ['uploads'],
        summary: 'Sign the upload of a document (excel, work_packet, dig_file, nra_file, permit)',
        querystring: z.object({ directory: z.string().max(50).optional(), ...fileQuery }),
        response: responses,
      },
    },
    async (request) => {
      const kind = service.docKind(request.query.directory);
      request.require(UPLOAD_ACTION[kind]);
      return service.signUpload(ctx, request.user, kind, request.query);
    },
  );

  app.get(
    '/media_upload/sign-s3-media',
    {
      config: { allow: UPLOAD_ACTION.media, openapi: { requiredQuery: ['fileName', 'fileType'] } },
      schema: {
        tags: ['uploads'],
        summary: 'Sign the upload of a ticket photo',
        querystring: z.object({ isVideo: z.string().max(10).optional(), ...fileQuery }),
        response: responses,
      },
    },
    async (request) => {
      if (request.query.isVideo === 'true') throw badRequest(service.UPLOAD_MSG.video);
      return service.signUpload(ctx, request.user, 'media', request.query);
    },
  );

  // Multipart bodies only in this scope: the image-complete form (the spreadsheet upload has its own, imports.routes.ts).
  await app.register(async (scope: App) => {
    await registerMultipart(scope);

    scope.post(
      '/media_upload/s3-upload-complete',
      {
        config: { allow: 'tickets.annotate' },
        schema: {
          tags: ['uploads'],
          summary: 'Record an uploaded photo on a ticket (form body: ticketId, url, thumbUrl, isVideo; optional takenAt, lat, lon, else read from EXIF)',
          body: imageCompleteBody,
          response: { 200: imageCompleteReply },
        },
      },
      (request) =>
        completeImageUpload(ctx, request.user, request.body, (err: unknown) => request.log.error({ err }, 'removing stored files failed')),
    );
  });
}
