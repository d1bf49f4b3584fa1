import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../errors';
import { errorChain } from '../db/errors';
import { MSG } from '../../shared/messages';

/** Human names for the 4xx Fastify raises itself (body too big, bad JSON, …). */
function fastifyMessage(err: FastifyError): string {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request is too large. Send less data, or a smaller file.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'This request must be sent as JSON.';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'The request body is not valid JSON.';
    default:
      return err.message;
  }
}


/**
 * A full disk or an unwritable data folder, from the file system (errno codes) or from
 * PostgreSQL (SQLSTATE 53100 disk_full; 58030 io_error names the cause in its message), looked
 * for down the `cause` chain (drizzle wraps driver errors). 507 / 503 say "not your input, and
 * not a bug": the person knows nothing was saved and whom to tell.
 */
export function storageFailure(err: unknown): AppError | null {
  for (const e of errorChain(err)) {
    const code = e.code;
    const text = typeof e.message === 'string' ? e.message : '';
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === '53100' || (code === '58030' && /no space left|quota/i.test(text))) {
      return new AppError(507, MSG.diskFull);
    }
    if (code === 'EACCES' || code === 'EROFS' || code === 'EPERM' || (code === '58030' && /read-only file system|permission denied/i.test(text))) {
      return new AppError(503, MSG.dataFolderReadOnly);
    }
  }
  return null;
}

/**
 * One error handler for the whole API (docs/product/api.md §1.3): typed AppErrors and validation errors become
 * `{ error, status, fields?, code? }` (the shape of plugins/routes.ts `errorReply`); anything unexpected is logged with the request id and answered
 * with a 500 that names the id but leaks nothing else.
 */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      return reply.status(err.statusCode).send({ error: err.message, status: err.message, fields: err.fields, code: err.code });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const issue of err.validation) {
        const where = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || (err as FastifyError).validationContext || 'request';
        fields[where] ??= issue.message ?? 'is not valid';
      }
      const first = Object.entries(fields)[0];
      const message = first ? `${first[1]} (${first[0]})` : 'The request is not valid.';
      return reply.status(400).send({ error: message, status: message, fields });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message = fastifyMessage(err);
      return reply.status(status).send({ error: message, status: message });
    }
    const storage = storageFailure(err);
    if (storage) {
      request.log.error({ err }, 'the data folder or database cannot write');
      return reply.status(storage.statusCode).send({ error: storage.message, status: storage.message });
    }
    request.log.error({ err }, 'unhandled error');
    const message = `${MSG.generic} (request ${request.id})`;
    return reply.status(500).send({ error: message, status: message, requestId: request.id });
  });

}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before there is a request (a
 * request line or headers over 16 KB, bytes that are not HTTP, a request that never finished
 * arriving). Fastify's default answers `{"error":"Request Header Fields Too Large",…}`; this
 * gives the documented shape `{error, status}` with a message a person can act on (docs/product/api.md §1.3).
 */
export function clientErrorReply(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket) {
  // A reset connection has nobody to answer (https://nodejs.org/api/http.html#event-clienterror).
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, label, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', MSG.requestHeadersTooLarge]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', MSG.requestTimeout]
        : [400, 'Bad Request', MSG.requestNotHttp];
  this.log.debug({ err }, `client error ${status}`);
  if (socket.writable) {
    const body = JSON.stringify({ error: message, status: message });
    socket.write(
      `HTTP/1.1 ${status} ${label}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
