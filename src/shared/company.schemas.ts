import { z } from 'zod';
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
});
export type CompanySettings = z.infer<typeof companySettings>;
export const companyReply = z.object({ company: companySettings });

/** PUT /company (role 1): the settings a company's Admin changes. */
export const companyUpdate = z.object({
  time_zone: z.string().trim().min(1, MSG.timeZoneInvalid).max(64, MSG.timeZoneInvalid).refine(isTimeZone, MSG.timeZoneInvalid),
});
export type CompanyUpdate = z.infer<typeof companyUpdate>;
