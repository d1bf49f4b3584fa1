/** A person's name as every screen and reply shows it: first and last, either may be missing. */
export const fullName = (first?: string | null, last?: string | null): string => [first, last].filter(Boolean).join(' ');
