/**
 * Words of the evidence behind a billed unit (docs/product/billing.md §7), shared by the server's
 * evidence pack and the screens that show a photo's checks.
 */

/** What each photo check flag means to a person reading the pack or a thumbnail. */
export const PHOTO_FLAG_LABEL: Record<string, string> = {
  far_from_pole: 'far from the pole',
  before_job: 'taken before this job existed',
  no_position: 'no position',
  no_time: 'no time',
};

export const photoFlagText = (flags: readonly string[]) => flags.map((f) => PHOTO_FLAG_LABEL[f] ?? f.replace(/_/g, ' ')).join(', ');

/** "43 m from the pole" (a distance under 10 m with one decimal). */
export const distanceText = (m: number) => `${m < 10 ? Math.round(m * 10) / 10 : Math.round(m)} m from the pole`;
