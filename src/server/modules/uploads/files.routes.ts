import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { IMAGE_TYPES, DOCUMENT_TYPES, describeFileType } from '../../../shared/uploads';
import type { App, AppContext } from '../../context';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors';
import { registerAuth } from '../../plugins/auth';
import { parseStorageKey } from '../../storage/keys';
import { AlreadyStoredError, LOCAL_FILES_PREFIX, LocalStorage, TooLargeError } from '../../storage/local';

export const FILE_MSG = {
  linkIncomplete: 'This upload link is incomplete. Ask the app for a new upload link and upload the file again.',
  linkInvalid: 'This upload link is not valid (its signature does not match). Ask the app for a new upload link and upload the file again.',
  linkExpired: 'This upload link has expired. Ask the app for a new upload link and upload the file again.',
  // Kinds of file in words, never MIME types: a person may read this.
  wrongType: (expected: string, got: string) =>
    `This upload link is for ${describeFileType(expected) ?? 'another kind of file'}, but the upload was sent as ${got ? (describeFileType(got) ?? 'another kind of file') : 'a file of no stated kind'}. Upload the same file that was chosen, again.`,
  linkUsed: 'This upload link has already been used: the file is stored. To send a different file, ask the app for a new upload link.',
  tooLarge: (max: number) => `The file is larger than this upload link allows (${max} bytes). Choose a smaller file.`,
} as const;

/** Optional in the schema so that an incomplete link gets FILE_MSG.linkIncomplete; the document says what a signed link carries. */
const putQuery = z.object({
  ct: z.string().max(255).optional().describe('the content type the link was signed for'),
  max: z.string().max(20).optional().describe('the largest size allowed, in bytes'),
  exp: z.string().max(20).optional().describe('when the link expires (seconds since 1970)'),
  sig: z.string().max(200).optional().describe('the signature'),
});

/** What the schema cannot say of the upload PUT: its path, its body of any type, its header and replies. */
const UPLOAD_PUT_DOC = {
  parameters: [
    { name: 'key', in: 'path', required: true, description: 'The rest of the signed path (company/kind/id/name): use `signedRequest` as given.', schema: { type: 'string' } },
    ...['ct', 'max', 'exp', 'sig'].map((name) => ({ name, in: 'query', required: true, schema: { type: 'string' } })),
    { name: 'Content-Type', in: 'header', required: true, description: 'Exactly the `Content-Type` of the sign reply\'s `headers`.', schema: { type: 'string' } },
  ],
  requestBody: { required: true, content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } }, description: 'The file\'s bytes, sent with the Content-Type the link was signed for (application/pdf, image/jpeg, …).' },
  responses: {
    '200': { description: 'Stored. Save the sign reply\'s `url` in the record next.' },
    '400': { description: 'The Content-Type is not the one the link was signed for.' },
    '403': { description: 'The link is incomplete, altered or expired: ask for a new one.' },
    '409': { description: 'The link was used already: the file is stored.' },
    '413': { description: 'The file is larger than the link allows.' },
  },
};

/** Types a browser may show inline; anything else is sent as a download. */
const INLINE_TYPES = new Set<string>([...Object.keys(IMAGE_TYPES), ...Object.keys(DOCUMENT_TYPES)]);

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * The URLs LocalStorage hands out (docs/product/platform.md §2 Files), outside /api/v1 because they are storage
 * URLs, not API calls: `PUT /files/<key>?ct&max&exp&sig` takes the bytes the server signed for,
 * once (the signature is the permission, like an S3 presigned URL); `GET /files/<key>` serves a file
 * to a signed-in member of the company that owns it (the session cookie comes with <img src>).
 * Registered only when the app stores files on local disk.
 */
export async function localFileRoutes(app: App, ctx: AppContext) {
  const storage = ctx.storage;
  if (!(storage instanceof LocalStorage)) return;

  await app.register(async (files: App) => {
    registerAuth(files, ctx);
    // Uploads are streamed to disk under their own limit, never buffered by a body parser
    // (the API's 1 MiB JSON limit does not apply here).
    files.removeAllContentTypeParsers();
    files.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    const keyOf = (request: FastifyRequest) => {
      const key = storage.keyFromUrl(request.url);
      if (!key || !parseStorageKey(key)) throw notFound('file');
      return key;
    };

    files.put(
      `${LOCAL_FILES_PREFIX}/*`,
      {
        // The signature in the query is the permission, like an S3 presigned URL (no token).
        config: { public: true, openapi: { operation: UPLOAD_PUT_DOC } },
        schema: {
          tags: ['uploads'],
          operationId: 'putSignedUpload',
          summary: 'Upload a file: PUT its bytes to the `signedRequest` of a sign call, with its `headers`',
          description:
            'Step 2 of the signed upload (step 1: `GET /api/v1/doc_upload/sign-s3-pdf` or `/api/v1/media_upload/sign-s3-media`). Send the request to `signedRequest` exactly as it was given (it carries `ct`, `max`, `exp`, `sig`), with the `headers` of that reply. The link works once and for 15 minutes; then save the `url` in the record (step 3).',
          querystring: putQuery,
        },
      },
      async (request, reply) => {
        const key = keyOf(request);
        const { ct, max, exp, sig } = request.query;
        if (!ct || !max || !exp || !sig || !/^\d{1,15}$/.test(max) || !/^\d{1,15}$/.test(exp)) throw forbidden(FILE_MSG.linkIncomplete);
        const grant = { key, contentType: ct, maxBytes: Number(max), expires: Number(exp) };
        const verdict = storage.check(grant, sig);
        if (verdict === 'bad-signature') throw forbidden(FILE_MSG.linkInvalid);
        if (verdict === 'expired') throw forbidden(FILE_MSG.linkExpired);

        const sent = mediaType(request.headers['content-type']);
        if (sent !== ct.toLowerCase()) throw badRequest(FILE_MSG.wrongType(ct, sent));
        const declared = Number(request.headers['content-length']);
        if (Number.isFinite(declared) && declared > grant.maxBytes) {
          reply.header('connection', 'close');
          throw new AppError(413, FILE_MSG.tooLarge(grant.maxBytes));
        }
        // Single-use (like an S3 PUT signed with If-None-Match: *): a link cannot replace the
        // file it already stored, which a record may point at by now. Checked here to refuse
        // before reading the body, and again atomically by the write itself.
        if (await storage.head(key)) {
          reply.header('connection', 'close');
          throw conflict(FILE_MSG.linkUsed);
        }
        const body = (request.body as Readable | undefined) ?? request.raw;
        try {
          await storage.write(key, body, ct, grant.maxBytes, { exclusive: true });
        } catch (err) {
          if (err instanceof TooLargeError) {
            reply.header('connection', 'close');
            throw new AppError(413, FILE_MSG.tooLarge(grant.maxBytes));
          }
          if (err instanceof AlreadyStoredError) throw conflict(FILE_MSG.linkUsed);
          throw err;
        }
        return reply.status(200).send();
      },
    );

    files.get(`${LOCAL_FILES_PREFIX}/*`, { config: { allow: 'read' }, schema: { hide: true } }, async (request, reply) => {
      const key = keyOf(request);
      // Another company's file answers exactly like a missing one.
      if (parseStorageKey(key)!.companyId !== request.user.companyId) throw notFound('file');
      const file = await storage.open(key);
      if (!file) throw notFound('file');
      const name = parseStorageKey(key)!.name;
      const inline = INLINE_TYPES.has(file.contentType);
      return reply
        .header('content-type', file.contentType)
        .header('content-length', file.size)
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', `${inline ? 'inline' : 'attachment'}; filename="${name}"`)
        // Keys are never reused for other content; private because it needs the session.
        .header('cache-control', 'private, max-age=86400')
        .send(file.stream);
    });
  });
}
