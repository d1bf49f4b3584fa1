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
  signedRequest: z.string(),
  url: z.string(),
  headers: z.record(z.string(), z.string()),
  maxBytes: z.number(),
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
      // The kind of file, read from the query, decides the permission (UPLOAD_ACTION).
      config: { allow: CHECKED_IN_HANDLER },
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
      config: { allow: UPLOAD_ACTION.media },
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
