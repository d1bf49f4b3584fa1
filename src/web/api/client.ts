import { API_PREFIX } from '../../shared/constants';
import { ERROR_CODE, type ErrorCode } from '../../shared/error-codes';
import { takeEarlyReply } from './earlyJob';
import { network } from './network';
import { clearSession, csrfHeaders } from './session';

/** A failed call, with the server's message (body.error, or body.status for crew routes). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown> | null,
  ) {
    super(message);
  }
  /** The refusal's stable name (shared/error-codes.ts), when the server gives one: branch on this, never on the message. */
  get code(): ErrorCode | undefined {
    const code = this.body?.code;
    return (Object.values(ERROR_CODE) as unknown[]).includes(code) ? (code as ErrorCode) : undefined;
  }
  /** Field-level messages of a 400, keyed by field name. */
  get fields(): Record<string, string> {
    return (this.body?.fields as Record<string, string>) ?? {};
  }
}

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON, or a form: FormData (multipart) or URLSearchParams (urlencoded). */
  body?: unknown;
  signal?: AbortSignal;
  /** Sign-in calls must not clear the session on 401. */
  public?: boolean;
  /** Extra request headers (the outbox's Idempotency-Key). */
  headers?: Record<string, string>;
  /**
   * A reply that may be large and is kept offline (a job, My Work): read as the bytes it came as,
   * which a large one's offline copy then stores (replyJson). Only these: a reply drained straight
   * into a Blob never passes through the page, so DevTools (and a browser test reading the reply)
   * see no body; and reading the text, then cloning or encoding it, cost a phone's page as much as
   * the copy saves.
   */
  keepBytes?: boolean;
}

/** Sends a call with the session cookie and our CSRF header; a network failure becomes ApiError(0). */
async function send(path: string, opts: ApiOptions, accept: string): Promise<Response> {
  const headers: Record<string, string> = { Accept: accept, ...csrfHeaders, ...opts.headers };
  // A form body (multipart or urlencoded) goes as it is, with the content type fetch gives it.
  const form = opts.body instanceof FormData || opts.body instanceof URLSearchParams;
  if (opts.body !== undefined && !form) headers['Content-Type'] = 'application/json';
  // The job a /job page opened at was asked for before the app loaded (earlyJob.ts): its reply,
  // once. Failed (offline then), it is asked for again below.
  const early = (opts.method ?? 'GET') === 'GET' && opts.body === undefined ? takeEarlyReply(path) : null;
  if (early) {
    try {
      const res = await early;
      network.reached();
      return res;
    } catch {
      // sent before the app ran: ask again
    }
  }
  try {
    const res = await fetch(`${API_PREFIX}${path}`, {
      method: opts.method ?? 'GET',
      headers,
      body: opts.body === undefined ? undefined : form ? (opts.body as FormData | URLSearchParams) : JSON.stringify(opts.body),
      signal: opts.signal,
      credentials: 'same-origin',
    });
    network.reached();
    return res;
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    network.unreachable();
    throw new ApiError(0, 'Cannot reach the server. Check your connection and try again.', null);
  }
}

const parseJson = (text: string): unknown => {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
};

/** A refusal as ApiError with the server's message; a 401 on an authenticated call ends the session. */
function failure(res: Response, body: unknown, opts: ApiOptions): ApiError {
  const b = (body && typeof body === 'object' ? body : null) as Record<string, unknown> | null;
  if (res.status === 401 && !opts.public) clearSession();
  const message = (b?.error as string) || (b?.status as string) || res.statusText || `Request failed (${res.status})`;
  return new ApiError(res.status, message, b);
}

/**
 * A large reply as the bytes it came as (a Blob), by the object it was parsed into: the offline
 * copy (offline/copies.ts) stores these, instead of the object whose structured clone of a job of
 * 5,000 tickets blocked a phone's page for ~350 ms, or a Blob made from its text, whose encoding
 * blocked it as long (decision 058). Held weakly: it goes with the object. Small replies keep none.
 */
const replyBlobs = new WeakMap<object, Blob>();
const KEEP_BYTES_FROM = 64 * 1024;
export const replyJson = (data: unknown): Blob | undefined => (data !== null && typeof data === 'object' ? replyBlobs.get(data) : undefined);

/**
 * The one fetch wrapper (docs/product/api.md): the HttpOnly session cookie plus our CSRF header, JSON (or a
 * form) in and JSON out. A 401 on an authenticated call ends the session, which sends the user to /login with the
 * page remembered.
 */
export async function apiFetch<T>(path: string, opts: ApiOptions = {}): Promise<T> {
  const res = await send(path, opts, 'application/json');
  if (!opts.keepBytes) {
    const body = parseJson(await res.text());
    if (!res.ok) throw failure(res, body, opts);
    return body as T;
  }
  // The bytes first, then their text: the bytes are what an offline copy keeps.
  const bytes = await res.blob();
  const body = parseJson(await bytes.text());
  if (!res.ok) throw failure(res, body, opts);
  if (bytes.size >= KEEP_BYTES_FROM && body !== null && typeof body === 'object') replyBlobs.set(body, bytes);
  return body as T;
}

/** A file the server builds (an export) as a Blob, refused like apiFetch when the call fails. */
export async function apiDownload(path: string, opts: ApiOptions = {}): Promise<Blob> {
  const res = await send(path, opts, '*/*');
  if (!res.ok) throw failure(res, parseJson(await res.text()), opts);
  return res.blob();
}
