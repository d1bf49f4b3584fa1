/**
 * A unique-index violation (two saves racing with one value), from either driver (pg or PGlite),
 * looked for down the `cause` chain (drizzle wraps driver errors). With `constraint`, only a
 * violation of that index counts (by its name, or in the message when the driver gives no name);
 * an error that names no constraint at all is taken to be that one.
 */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  for (let e = err as { code?: string; constraint?: string; message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code !== '23505') continue;
    return !constraint || !e.constraint || e.constraint === constraint || (e.message ?? '').includes(constraint);
  }
  return false;
}
