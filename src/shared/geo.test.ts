import { describe, expect, it } from 'vitest';
import { formatGeo, truncateGeo } from './geo';
import { latitudeSchema, longitudeSchema } from './geo.schemas';

describe('truncateGeo (docs/product/rules.md §2.3 Add pole: at most 6 decimals, cut not rounded)', () => {
  it('cuts extra decimals without rounding up', () => {
    expect(truncateGeo(42.1234569)).toBe(42.123456);
    expect(truncateGeo(42.9999999)).toBe(42.999999);
  });
  it('cuts negative values toward zero (not down)', () => {
    expect(truncateGeo(-72.5891239)).toBe(-72.589123);
    expect(truncateGeo(-0.0000001)).toBe(0);
  });
  it('keeps values with 6 or fewer decimals exactly', () => {
    expect(truncateGeo(42.101)).toBe(42.101);
    expect(truncateGeo(42.000001)).toBe(42.000001);
    expect(truncateGeo(0.000001)).toBe(0.000001);
    expect(truncateGeo(-72)).toBe(-72);
  });
  it('accepts the text of an input and trims it', () => {
    expect(truncateGeo(' 42.12345678 ')).toBe(42.123456);
    expect(truncateGeo('-71.0000009')).toBe(-71);
  });
  it('answers null for empty, missing and non-numbers', () => {
    expect(truncateGeo('')).toBeNull();
    expect(truncateGeo('  ')).toBeNull();
    expect(truncateGeo('abc')).toBeNull();
    expect(truncateGeo(null)).toBeNull();
    expect(truncateGeo(undefined)).toBeNull();
    expect(truncateGeo(Number.NaN)).toBeNull();
    expect(truncateGeo(Number.POSITIVE_INFINITY)).toBeNull();
  });
  it('the coordinate schemas truncate and check the range', () => {
    expect(latitudeSchema.parse(42.12345678)).toBe(42.123456);
    expect(longitudeSchema.parse(-179.9999999)).toBe(-179.999999);
    expect(latitudeSchema.parse(null)).toBeNull();
    expect(latitudeSchema.safeParse(90.5).success).toBe(false);
    expect(longitudeSchema.safeParse(-181).success).toBe(false);
  });
});

describe('formatGeo', () => {
  it('shows a coordinate with 6 decimals (docs/product/rules.md §2.3), padding and never rounding past what is stored', () => {
    expect(formatGeo(42.1)).toBe('42.100000');
    expect(formatGeo(-71.654321)).toBe('-71.654321');
    expect(formatGeo(0)).toBe('0.000000');
    expect(formatGeo(null)).toBe('');
    expect(formatGeo(undefined)).toBe('');
  });
});
