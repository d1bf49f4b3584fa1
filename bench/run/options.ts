import { parseArgs } from '../lib/common';

/**
 * `npm run bench`'s options (the list is in bench/run.ts) and the sizes they set, read once from
 * the command line: every part of the run measures with the same counts and durations.
 */
export const args = parseArgs(process.argv.slice(2));
/** Clients of every load test. */
export const CONNECTIONS = 10;
export const QUICK = Boolean(args.quick);
/** Load-test repeats, and seconds per load run. */
export const RUNS = Math.min(10, Math.max(1, Number(args.runs ?? (QUICK ? 2 : 3))));
export const DURATION = Math.min(60, Math.max(1, Number(args.duration ?? (QUICK ? 3 : 5))));
/** Port of the servers the bench starts, one at a time (undefined: a free one). */
export const PORT = args.port === undefined ? undefined : Number(args.port);
if (PORT !== undefined && !(Number.isInteger(PORT) && PORT > 0 && PORT < 65536)) throw new Error('--port must be a TCP port number');
/** Field mode: repeat visits and offline reloads of My Work; syncs of 50 queued notes. */
export const FIELD_VISITS = QUICK ? 2 : 5;
export const FIELD_SYNCS = QUICK ? 1 : 3;
/** A slow route's load runs stop once they have taken this long (the first always runs). */
export const LOAD_BUDGET_MS = QUICK ? 60_000 : 120_000;
/** Rounds of "save one ticket, then read the big job's page": alone, then with CONNECTIONS readers at once. */
export const REBUILT_ROUNDS = { one: QUICK ? 8 : 20, many: QUICK ? 2 : 5 };

export const log = (m: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${m}`);
