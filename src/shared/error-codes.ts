/**
 * Stable names of the refusals a client must tell apart (sent as `code` beside `error` and
 * `status`). Messages may be reworded; these never change, so the web app branches on them
 * and never on message text.
 */
export const ERROR_CODE = {
  /** Another job of the company already has this job number (409). */
  jobNumberTaken: 'job_number_taken',
  /** Someone saved the record since it was loaded: reload, then save again (409). */
  staleVersion: 'stale_version',
  /** The account exists but its owner has not set a password yet (400). */
  loginUnverified: 'login_unverified',
  /** Wrong email or password (403). */
  loginWrong: 'login_wrong',
  /** The account is deactivated (403). */
  loginInactive: 'login_inactive',
  /** A password-reset link that is wrong, used or expired (400). */
  resetInvalid: 'reset_invalid',
  /** A cookie-signed change without the CSRF header (403). */
  csrfMissing: 'csrf_missing',
  /** An API token used on a route for people only: one's own account, or managing tokens (403). */
  apiTokenNotForThis: 'api_token_not_for_this',
  /** Another member already uses this email (409). */
  emailTaken: 'email_taken',
  /** A workbook over a limit (rows, cells, time): 422 wherever it is read, never a row problem. */
  workbookLimit: 'workbook_limit',
  /** A file that is not a workbook this app reads (.xls, .ods, damaged): 422 from every route alike. */
  workbookKind: 'workbook_kind',
  /** An `Idempotency-Key` header that is not 1–200 visible ASCII characters (400). */
  idempotencyKeyInvalid: 'idempotency_key_invalid',
  /** The key was already used by this user for a different request (422). */
  idempotencyKeyReused: 'idempotency_key_reused',
  /** The first request with this key is still running: retry later (409). */
  idempotencyInProgress: 'idempotency_request_in_progress',
  /** The first request with this key was applied, but its reply was too large to keep (409). */
  idempotencyReplyNotKept: 'idempotency_reply_not_kept',
  /** Nothing to invoice: no Complete ticket of the job is unbilled (409). */
  nothingToInvoice: 'nothing_to_invoice',
  /** A ticket asked for is already on an invoice, maybe one made a moment ago (409). */
  alreadyBilled: 'already_billed',
  /** The ticket is billed and locked: its tasks and status change only after an unlock (409). */
  ticketBilled: 'ticket_billed',
  /** The ticket already holds its 10 photos: a phone keeps the refused one to save or swap (400). */
  ticketPhotosFull: 'ticket_photos_full',
  /** The job has invoices, which must stay: it cannot be deleted (409). */
  jobHasInvoices: 'job_has_invoices',
} as const;

export type ErrorCode = (typeof ERROR_CODE)[keyof typeof ERROR_CODE];
