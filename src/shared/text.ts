import { z } from 'zod';
import { MSG } from './messages';
import { normalizeCode } from './names';

/**
 * Text that PostgreSQL can store as it was typed. A NUL character is refused by PostgreSQL's
 * `text` (the insert fails), and a lone UTF-16 surrogate is not Unicode at all (the driver would
 * silently turn it into U+FFFD, so what is stored differs from what was sent). Both only reach
 * us from a broken paste or a hostile client, so they are refused, never "cleaned".
 */
// eslint-disable-next-line no-control-regex -- matching NUL is the point of this rule
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/** A zod string that refuses unstorable text: for forms and any schema that wants it early. */
export const storableString = () => z.string().refine(isStorableText, MSG.unstorableText);

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
 *
 * Walked with a stack of its own, never by recursion: a hostile body nested thousands of levels
 * deep must be answered (400 by the depth check, plugins/json-depth.ts, or walked here by any
 * other caller), not overflow the call stack into a 500. The path is built only for a hit, from
 * the keys on the stack, so a deep walk does not copy a growing path at every level.
 */
export function findUnstorableText(value: unknown): string | null {
  if (typeof value === 'string') return isStorableText(value) ? null : 'request';
  if (!isParsedData(value)) return null;
  const seen = new WeakSet<object>([value]);
  // One frame per open object: its entries, the next one to look at, and the key it sits under.
  const stack: { entries: [string, unknown][]; next: number; key: string }[] = [{ entries: Object.entries(value), next: 0, key: '' }];
  const pathTo = (extra?: string) => {
    const keys = stack.slice(1).map((f) => f.key);
    if (extra !== undefined) keys.push(extra);
    return keys.length ? keys.join('.') : 'request';
  };
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (frame.next >= frame.entries.length) {
      stack.pop();
      continue;
    }
    const [key, inner] = frame.entries[frame.next++];
    if (!isStorableText(key)) return pathTo();
    if (typeof inner === 'string') {
      if (!isStorableText(inner)) return pathTo(key);
    } else if (isParsedData(inner) && !seen.has(inner)) {
      seen.add(inner);
      stack.push({ entries: Object.entries(inner), next: 0, key });
    }
  }
  return null;
}

/**
 * A zod string that is stored normalised (names.ts normalizeCode): every schema of a code or name
 * uses it. Here, not in names.ts, so that screens which only show a name (fullName) do not load zod.
 */
export const codeText = (message?: string) => z.string(message).overwrite(normalizeCode);
