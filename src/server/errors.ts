import type { ErrorCode } from '../shared/error-codes';
import { MSG } from '../shared/messages';

/**
 * The one way a service says "no": a status and a message a person can act on. The error
 * plugin turns it into `{ error, status, fields?, code? }` (crew clients read `status`, docs/product/api.md §1.3;
 * the web app branches on `code`, never on the message).
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly fields?: Record<string, string>,
    /** A stable name for callers that must tell kinds of the same status apart. */
    readonly code?: ErrorCode,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fields?: Record<string, string>, code?: ErrorCode) => new AppError(400, message, fields, code);
export const unauthorized = (message: string = MSG.notSignedIn) => new AppError(401, message);
export const forbidden = (message: string = MSG.forbidden, code?: ErrorCode) => new AppError(403, message, undefined, code);
export const notFound = (what = 'record') => new AppError(404, MSG.recordNotFound(what));
export const conflict = (message: string, code?: ErrorCode) => new AppError(409, message, undefined, code);
export const unprocessable = (message: string, code?: ErrorCode) => new AppError(422, message, undefined, code);
export const tooMany = (message: string) => new AppError(429, message);
