import { describe, expect, it } from 'vitest';
import { byDistance, distanceMeters, formatDistance, placeOf } from './distance';

describe('distanceMeters (haversine)', () => {
  it('is zero for one place and symmetric', () => {
    const a = { lat: 42.36, lon: -71.06 };
    const b = { lat: 40.71, lon: -74.01 };
    expect(distanceMeters(a, a)).toBe(0);
    expect(distanceMeters(a, b)).toBeCloseTo(distanceMeters(b, a), 6);
  });
  it('gives known great-circle distances', () => {
    // One degree of latitude on the mean sphere: 2πR / 360.
    expect(distanceMeters({ lat: 0, lon: 0 }, { lat: 1, lon: 0 })).toBeCloseTo(111_195, 0);
    // Boston City Hall → Times Square, about 306 km.
    const km = distanceMeters({ lat: 42.3603, lon: -71.0579 }, { lat: 40.758, lon: -73.9855 }) / 1000;
    expect(km).toBeGreaterThan(300);
    expect(km).toBeLessThan(310);
    // Across the antimeridian the short way, not around the world.
    expect(distanceMeters({ lat: 0, lon: 179.5 }, { lat: 0, lon: -179.5 })).toBeCloseTo(111_195, 0);
  });
});

describe('byDistance ("Nearest first")', () => {
  const row = (id: number, geo_lat: number | null, geo_lon: number | null) => ({ id, geo_lat, geo_lon });
  it('sorts nearest first, rows without coordinates last in their own order', () => {
    const rows = [row(1, null, null), row(2, 42.02, -71), row(3, 42.001, -71), row(4, 42.01, null), row(5, 42.1, -71)];
    const sorted = byDistance(rows, { lat: 42, lon: -71 });
    expect(sorted.map((x) => x.row.id)).toEqual([3, 2, 5, 1, 4]);
    expect(sorted[0].meters).toBeCloseTo(111.2, 0);
    expect(sorted[3].meters).toBeNull();
  });
  it('keeps the incoming order among equal distances, and leaves the input alone', () => {
    const rows = [row(7, 1, 1), row(6, 1, 1), row(5, 0, 0)];
    expect(byDistance(rows, { lat: 0, lon: 0 }).map((x) => x.row.id)).toEqual([5, 7, 6]);
    expect(rows.map((r) => r.id)).toEqual([7, 6, 5]);
  });
  it('placeOf needs both coordinates (0 is a coordinate)', () => {
    expect(placeOf(row(1, 0, 0))).toEqual({ lat: 0, lon: 0 });
    expect(placeOf(row(1, 42, null))).toBeNull();
  });
});

describe('formatDistance', () => {
  it('feet under a tenth of a mile, then miles', () => {
    expect(formatDistance(0)).toBe('0 ft');
    expect(formatDistance(30)).toBe('100 ft');
    expect(formatDistance(160)).toBe('520 ft');
    expect(formatDistance(161)).toBe('0.1 mi');
    expect(formatDistance(1609.344 * 2.34)).toBe('2.3 mi');
    expect(formatDistance(1609.344 * 1234.4)).toBe('1,234 mi');
  });
});
