import { z } from 'zod';

/**
 * Text that PostgreSQL can store as it was typed. A NUL character is refused by PostgreSQL's
 * `text` (the insert fails), and a lone UTF-16 surrogate is not Unicode at all (the driver would
 * silently turn it into U+FFFD, so what is stored differs from what was sent). Both only reach
 * us from a broken paste or a hostile client, so they are refused, never "cleaned".
 */
// eslint-disable-next-line no-control-regex -- matching NUL is the point of this rule
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const UNSTORABLE_TEXT_MESSAGE =
  'contains a character that cannot be stored (a NUL byte or a broken Unicode character). Remove it and try again.';

export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/** A zod string that refuses unstorable text: for forms and any schema that wants it early. */
export const storableString = () => z.string().refine(isStorableText, UNSTORABLE_TEXT_MESSAGE);

/**
 * Parsed JSON, form and query values are arrays and objects (the query parser's have a bare
 * prototype of their own). Bytes and streams (a multipart file, a raw upload body) are not
 * text and are skipped: walking a stream's internals would be wrong, and circular.
 */
function isParsedData(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return false;
  return typeof (value as { pipe?: unknown }).pipe !== 'function';
}

/**
 * The first place in a parsed request part (body, query, params) whose key or string value is
 * not storable, as a dotted path ('tickets.0.note_text'), or null.
 */
export function findUnstorableText(value: unknown, path = '', seen = new WeakSet<object>()): string | null {
  if (typeof value === 'string') return isStorableText(value) ? null : path || 'request';
  if (!isParsedData(value) || seen.has(value)) return null;
  seen.add(value);
  for (const [key, inner] of Object.entries(value)) {
    const here = path ? `${path}.${key}` : key;
    if (!isStorableText(key)) return path || 'request';
    const hit = findUnstorableText(inner, here, seen);
    if (hit) return hit;
  }
  return null;
}
