import { z } from 'zod';
import { EVIDENCE_LIMITS } from './evidence';
import { MSG } from './messages';

/**
 * An IANA time zone name the JavaScript clock knows (`America/New_York`). The server also checks
 * that the database knows it, since some reads work on the company's calendar in SQL.
 */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The zones a person picks from: every zone the browser or Node knows, with UTC. */
export function timeZoneNames(): string[] {
  const names = Intl.supportedValuesOf('timeZone');
  return names.includes('UTC') ? names : [...names, 'UTC'];
}

/** GET /company → the caller's company and its settings. */
export const companySettings = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The IANA zone of the company's calendar: the digest at 06:00, completion dates, "today". */
  time_zone: z.string(),
  /** Evidence (docs/product/records.md §7): a photo farther than this many metres from its pole is flagged far_from_pole. */
  evidence_radius_m: z.number().int(),
  /** Evidence (docs/product/records.md §8): unflagged photos a Complete ticket needs to be evidenced; 0 turns the rule off. */
  evidence_photos_required: z.number().int(),
});
export type CompanySettings = z.infer<typeof companySettings>;
export const companyReply = z.object({ company: companySettings });

/** PUT /company (role 1): the settings a company's Admin changes; those left out stay as they are. */
export const companyUpdate = z.object({
  time_zone: z.string().trim().min(1, MSG.timeZoneInvalid).max(64, MSG.timeZoneInvalid).refine(isTimeZone, MSG.timeZoneInvalid).optional(),
  evidence_radius_m: z
    .number({ error: MSG.evidenceRadiusInvalid })
    .int(MSG.evidenceRadiusInvalid)
    .min(EVIDENCE_LIMITS.radiusMin, MSG.evidenceRadiusInvalid)
    .max(EVIDENCE_LIMITS.radiusMax, MSG.evidenceRadiusInvalid)
    .optional(),
  evidence_photos_required: z
    .number({ error: MSG.evidencePhotosInvalid })
    .int(MSG.evidencePhotosInvalid)
    .min(0, MSG.evidencePhotosInvalid)
    .max(EVIDENCE_LIMITS.photosMax, MSG.evidencePhotosInvalid)
    .optional(),
});
export type CompanyUpdate = z.infer<typeof companyUpdate>;
