/** A person's name as every screen and reply shows it: first and last, either may be missing. */
export const fullName = (first?: string | null, last?: string | null): string => [first, last].filter(Boolean).join(' ');

/**
 * Characters that show nothing yet make two names differ: zero-width spaces and joiners, the
 * soft hyphen, the byte order mark, variation selectors, and the bidirectional controls (a
 * right-to-left override can make "J-1" display as something else entirely). Removed.
 */
// eslint-disable-next-line no-misleading-character-class -- the combining joiner and variation selectors are listed to be removed
const INVISIBLE = /[\u00ad\u034f\u061c\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufe00-\ufe0f\ufeff]/g;
/** Blanks, spelled out (as JavaScript's \s) so that the migration's SQL can use the same list. */
const BLANKS = /[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;

/**
 * docs/product/sessions-and-safety.md §9 "names that look alike": a job number, pole name, line name or unit code as it is
 * stored and compared. Unicode NFKC (full-width `Ｊ-１` is `J-1`), invisible characters removed,
 * blanks (no-break space included) collapsed to one space, and trimmed. Letter case and the
 * letters of other scripts are kept: those are differences a person can see. The migration
 * *_look_alike_names.sql does the same in SQL for the rows stored before.
 */
export function normalizeCode(value: string): string {
  return value.normalize('NFKC').replace(INVISIBLE, '').replace(BLANKS, ' ').trim();
}
