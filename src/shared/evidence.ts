/**
 * Evidence behind every billed unit (docs/product/records.md §6–§9): the photo checks' flags, the
 * one "evidenced" rule the server (invoices, production, the jobs list's count) and the web app
 * (the ticket table, My Work, the invoice preview) both apply, and the words that show them (the
 * thumbnails, the viewer and the evidence pack of docs/product/billing.md §7).
 * No imports: My Work and the phone's ticket view load this on the roadside.
 */

/** The checks a photo can fail (images.flags), in the order they are shown. */
export const PHOTO_FLAGS = ['far_from_pole', 'before_job', 'no_position', 'no_time'] as const;
export type PhotoFlag = (typeof PHOTO_FLAGS)[number];

/** A photo with one of these does not count as evidence: it is not of this pole, or not of this job. */
export const DISQUALIFYING_FLAGS: readonly PhotoFlag[] = ['far_from_pole', 'before_job'];

/** The company's defaults (companies.evidence_radius_m, evidence_photos_required). */
export const EVIDENCE_DEFAULTS = { radiusM: 100, photosRequired: 1 } as const;
/** What the settings accept: a radius a phone's GPS can tell from the next pole, up to a few km; photos up to the ticket's 10. */
export const EVIDENCE_LIMITS = { radiusMin: 5, radiusMax: 5000, photosMax: 10 } as const;

/** Whether a photo counts as evidence (no disqualifying flag). */
export const countsAsEvidence = (flags: readonly string[]): boolean => !flags.some((f) => (DISQUALIFYING_FLAGS as readonly string[]).includes(f));

/** What the rule reads of a ticket: its status and how many of its photos count (TicketRow.evidence_photo_count). */
export interface EvidenceFacts {
  status: string;
  evidence_photo_count: number;
}

/**
 * The rule (docs/product/records.md §8): a Complete ticket is evidenced when at least `required`
 * of its photos count; 0 turns the rule off (every Complete ticket is). Null for a ticket that
 * is not Complete: evidence is asked of completed work only.
 */
export function isEvidenced(t: EvidenceFacts, required: number): boolean | null {
  if (t.status !== 'Complete') return null;
  return t.evidence_photo_count >= Math.max(0, required);
}

/** Why a Complete ticket is not evidenced, in words for the office (the invoice's `skipped` reason); null when it is. */
export function missingEvidence(t: EvidenceFacts, required: number): string | null {
  if (isEvidenced(t, required) !== false) return null;
  const have = t.evidence_photo_count;
  const need = `${required} photo${required === 1 ? '' : 's'} at the pole`;
  return have === 0 ? `No photo at the pole (${need} required)` : `Only ${have} of ${need} required`;
}

/** What each photo check flag means to a person reading the pack or a thumbnail. */
export const PHOTO_FLAG_LABEL: Record<PhotoFlag, string> = {
  far_from_pole: 'far from the pole',
  before_job: 'taken before this job existed',
  no_position: 'no position',
  no_time: 'no time',
};

export const photoFlagText = (flags: readonly string[]) => flags.map((f) => PHOTO_FLAG_LABEL[f as PhotoFlag] ?? f.replace(/_/g, ' ')).join(', ');

/** "43 m from the pole" (a distance under 10 m with one decimal). */
export const distanceText = (m: number) => `${m < 10 ? Math.round(m * 10) / 10 : Math.round(m).toLocaleString('en-US')} m from the pole`;

/** "43 m from the pole" and the other flags, as the thumbnail and the viewer say them (the distance says "far" itself). */
export function photoCheckWords(p: { distance_m: number | null; flags: readonly string[] }): string[] {
  const out: string[] = [];
  if (p.distance_m != null) out.push(distanceText(p.distance_m));
  for (const f of p.flags) if (f !== 'far_from_pole') out.push(PHOTO_FLAG_LABEL[f as PhotoFlag] ?? f.replace(/_/g, ' '));
  return out;
}

/** Whether the photo is flagged in a way that disqualifies it (shown in a warning colour). */
export const photoIsSuspect = (p: { flags: readonly string[] }) => !countsAsEvidence(p.flags);

/** The completion record's position: all three or none (docs/product/records.md §6). */
export interface CompletionPosition {
  completed_lat: number;
  completed_lon: number;
  completed_accuracy_m: number;
}
