/** Business constants of docs/product/rules.md §6 and the fixed ids of docs/product/roles-and-statuses.md, shared by server and web. */

export const ROLE = {
  ADMIN: 1,
  OFFICE_MANAGER: 2,
  FOREMAN: 3,
  WORKING_FOREMAN: 4,
  LINEMAN: 5,
  APPRENTICE: 6,
} as const;
export type RoleId = (typeof ROLE)[keyof typeof ROLE];
export const ROLE_IDS: readonly RoleId[] = [1, 2, 3, 4, 5, 6];
export const DEFAULT_ROLE_NAMES: Record<RoleId, string> = {
  1: 'Admin',
  2: 'Office Manager',
  3: 'Foreman',
  4: 'Working Foreman',
  5: 'Lineman',
  6: 'Apprentice',
};
/** docs/product/roles-and-statuses.md §4: the Crew link shows only when roleId is below this. */
export const CREW_LINK_ROLE_THRESHOLD = 4;
/** docs/product/rules.md §3.1 Crew: these roles must name a crew foreman. */
export const ROLES_NEEDING_FOREMAN: readonly RoleId[] = [ROLE.WORKING_FOREMAN, ROLE.LINEMAN, ROLE.APPRENTICE];

export const JOB_TYPE = { NORMAL: 0, ESTIMATION: 1 } as const;
export const JOB_STATUS = { ESTIMATION: 'In Estimation', IN_PROGRESS: 'In Progress', COMPLETE: 'Complete' } as const;
export type JobStatus = (typeof JOB_STATUS)[keyof typeof JOB_STATUS];
export const TICKET_STATUS = { PENDING: 'Pending', COMPLETE: 'Complete' } as const;
export type TicketStatus = (typeof TICKET_STATUS)[keyof typeof TICKET_STATUS];

export const CREW_STATUS = { ACTIVE: 1, INACTIVE: 2 } as const;

export const LIMITS = {
  passwordMin: 4,
  emailMin: 2,
  nameMin: 2,
  phoneLengths: [7, 10] as readonly number[],
  imagesPerTicket: 10,
  imagesPerPick: 10,
  geoDecimals: 6,
  minJobColumns: 9,
  minLibraryColumns: 7,
  /** Longest free text we accept anywhere (descriptions, notes); names and codes are shorter. */
  textMax: 10_000,
  shortTextMax: 255,
} as const;

/**
 * My Work (GET /api/v1/work): at most WORK_LIMIT tickets per reply unless `limit` asks otherwise
 * (docs/product/scale.md §5): a foreman's few thousand open tickets would be megabytes on a phone's
 * signal; the first ones in work order are the day's, and `total` tells how many more there are.
 * WORK_LIMIT_MAX is the most one reply may hold; the page asks for WORK_LIMIT more at a time up to
 * it. Here, not in work.schemas.ts: My Work reads them, and a value imported from a schemas
 * module brings zod and that module's schemas into the page's first load (~28 KB gzip).
 */
export const WORK_LIMIT = 500;
export const WORK_LIMIT_MAX = 2000;

/** Timings both sides or several screens read (the 400 ms page fade lives in app.css alone). */
export const TIMING = {
  searchThrottleBelowChars: 5,
  searchDelayMs: 1000,
  uploadRetryAfterMs: 10_000,
  bannerMs: 5000,
} as const;

export const SESSION_COOKIE = 'linecrew_token';
/**
 * Sent by the web app with every API call: a state-changing call authenticated by the cookie
 * alone must carry it (plugins/auth.ts), which no cross-site form or sub-resource can. Lower
 * case: Node gives header names that way.
 */
export const CSRF_HEADER = 'x-linecrew-csrf';
export const API_PREFIX = '/api/v1';
/**
 * A client's name for one change (docs/product/field-mode.md §6 "replays apply once"): a state-changing call sent
 * again with the same key is answered from the stored reply, not applied twice
 * (server/plugins/idempotency.ts). The outbox sends one per queued change.
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** Set to `true` on a reply that is a stored one, replayed for a repeated key. */
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
/** `Idempotency-Key`: 1–200 visible ASCII characters (docs/product/field-mode.md §6). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;

/** Upload kinds of docs/product/api.md §6 (documents) plus images. */
export const DOC_KINDS = ['excel', 'work_packet', 'dig_file', 'nra_file', 'permit'] as const;
export type DocKind = (typeof DOC_KINDS)[number];
