/** What an error in the chain may carry: a driver's SQLSTATE or errno code, a constraint, a message. */
export interface ChainedError {
  code?: unknown;
  constraint?: unknown;
  message?: unknown;
}

/**
 * An error and its `cause`s, outermost first: drizzle wraps the driver's error (pg or PGlite),
 * which carries the code. A few levels at most, so a cycle cannot loop.
 */
export function* errorChain(err: unknown): Generator<ChainedError> {
  let e = err as (ChainedError & { cause?: unknown }) | null | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 8; depth++) {
    yield e;
    e = e.cause as typeof e;
  }
}

/**
 * A unique-index violation (two saves racing with one value), from either driver (pg or PGlite),
 * looked for down the `cause` chain. With `constraint`, only a violation of that index counts (by
 * its name, or in the message when the driver gives no name); an error that names no constraint
 * at all is taken to be that one.
 */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  for (const e of errorChain(err)) {
    if (e.code !== '23505') continue;
    const message = typeof e.message === 'string' ? e.message : '';
    return !constraint || !e.constraint || e.constraint === constraint || message.includes(constraint);
  }
  return false;
}
