import type { FastifyServerOptions } from 'fastify';

/**
 * What the server writes to its log, without secrets or personal data (decision 015, docs/deploy.md).
 * Query strings carry reset tokens (`/resetPassword?resetToken=…`), upload signatures (`sig=`,
 * `X-Amz-Signature=`) and people's names or emails in searches: the access log keeps the
 * parameter names and drops every value. Error messages and stacks get the same treatment for
 * any URL they quote, and only known, harmless fields of an error are logged.
 */

const REDACTED = '[redacted]';

/** `/path?a=1&b=2` → `/path?a=[redacted]&b=[redacted]`; the path itself is kept. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const keys = query
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? pair : `${pair.slice(0, eq)}=${REDACTED}`;
    });
  return `${url.slice(0, q)}?${keys.join('&')}`;
}

/** Redacts the values of every query string inside free text (an error message, a stack). */
export function redactText(text: string): string {
  return text.replace(/\?([^\s?#"'<>]*=[^\s#"'<>]*)/g, (_m, query: string) => redactUrl(`?${query}`));
}

interface RequestLike {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

interface ErrorLike {
  name?: string;
  message?: string;
  stack?: string;
  code?: unknown;
  statusCode?: unknown;
  constraint?: unknown;
  table?: unknown;
  routine?: unknown;
  cause?: unknown;
}

interface SerializedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

function serializeError(err: unknown, depth = 0): SerializedError {
  if (!err || typeof err !== 'object') return { type: typeof err, message: redactText(String(err)), stack: '' };
  const e = err as ErrorLike;
  return {
    type: e.constructor?.name ?? e.name ?? 'Error',
    message: redactText(String(e.message ?? '')),
    stack: e.stack ? redactText(e.stack) : '',
    // Machine-readable codes help; pg's `detail` and `where` may quote row values: left out.
    code: e.code,
    statusCode: e.statusCode,
    constraint: e.constraint,
    table: e.table,
    routine: e.routine,
    cause: e.cause && depth < 3 ? serializeError(e.cause, depth + 1) : undefined,
  };
}

export const logSerializers = {
  req(req: RequestLike) {
    return {
      method: req.method,
      url: req.url === undefined ? undefined : redactUrl(req.url),
      host: req.host,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    };
  },
  err: (err: unknown) => serializeError(err),
};

/**
 * The server's logger options (main.ts). `redact` is the second belt: headers and password
 * fields, should a request's headers or body ever be logged.
 */
export function loggerOptions(level: string): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    serializers: logSerializers,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        'headers.authorization',
        'headers.cookie',
        '*.password',
        '*.newPassword',
        '*.resetToken',
        '*.token',
        'body.password',
        'body.resetToken',
      ],
      censor: REDACTED,
    },
  };
}
