import { describe, expect, it } from 'vitest';
import { captureOf, JUST_TAKEN_MS } from './photo';

/** docs/product/field-mode.md §8 photos, decision 038: EXIF first, field by field; else the phone's time and place at capture. */
describe('when and where a photo was taken', () => {
  const now = Date.parse('2026-11-25T10:00:00Z');
  const none = { takenAt: null, lat: null, lon: null };
  const here = { lat: 42.42, lon: -71.21 };

  it('a photo just taken without EXIF gets the phone’s clock and position', () => {
    expect(captureOf(none, { lastModified: now - 2000 }, now, here)).toEqual({ takenAt: '2026-11-25T10:00:00.000Z', lat: 42.42, lon: -71.21 });
  });

  it('EXIF wins, field by field', () => {
    expect(captureOf({ takenAt: '2026-11-20T09:15:30.000Z', lat: 42.36, lon: -71.05 }, { lastModified: now }, now, here)).toEqual({ takenAt: '2026-11-20T09:15:30.000Z', lat: 42.36, lon: -71.05 });
    // A camera with a clock but no GPS fix: its time, the phone's place.
    expect(captureOf({ takenAt: '2026-11-20T09:15:30.000Z', lat: null, lon: null }, { lastModified: now }, now, here)).toEqual({ takenAt: '2026-11-20T09:15:30.000Z', lat: 42.42, lon: -71.21 });
  });

  it('without a granted position, only the time', () => {
    expect(captureOf(none, { lastModified: now }, now, null)).toEqual({ takenAt: '2026-11-25T10:00:00.000Z', lat: null, lon: null });
  });

  it('a file from the gallery, older than a few minutes, gets neither: now and here would be false evidence', () => {
    expect(captureOf(none, { lastModified: now - JUST_TAKEN_MS - 1 }, now, here)).toEqual(none);
    expect(captureOf(none, { lastModified: 0 }, now, here)).toEqual({ takenAt: '2026-11-25T10:00:00.000Z', lat: 42.42, lon: -71.21 });
  });
});
