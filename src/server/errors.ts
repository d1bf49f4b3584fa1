import { MSG } from '../shared/messages';

/**
 * The one way a service says "no": a status and a message a person can act on. The error
 * plugin turns it into `{ error, status }` (crew clients read `status`, DESIGN §5).
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly fields?: Record<string, string>,
    /** A stable name for callers that must tell kinds of the same status apart. */
    readonly code?: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) => new AppError(400, message, fields);
export const unauthorized = (message: string = MSG.notSignedIn) => new AppError(401, message);
export const forbidden = (message: string = MSG.forbidden) => new AppError(403, message);
export const notFound = (what = 'record') => new AppError(404, `That ${what} does not exist, or it belongs to another company.`);
export const conflict = (message: string) => new AppError(409, message);
export const unprocessable = (message: string, code?: string) => new AppError(422, message, undefined, code);
/** A workbook over a limit (rows, cells, time): 422 wherever it is read, never a row problem. */
export const WORKBOOK_LIMIT = 'workbook_limit';
export const tooMany = (message: string) => new AppError(429, message);
