/** A nullable text as an input shows it. */
export const text = (v: string | null | undefined) => v ?? '';
/** What an input gives back: '' is kept as null. */
export const orNull = (v: string) => (v.trim() === '' ? null : v);
