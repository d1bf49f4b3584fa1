import { describe, expect, it } from 'vitest';
import { addDays, dayInZone, lastWeekStarts, weekStartOf } from './dashboard';

describe('dashboard weeks', () => {
  it('starts every week on the Monday before or on the day', () => {
    // 2026-11-23 is a Monday.
    expect(weekStartOf('2026-11-23')).toBe('2026-11-23');
    expect(weekStartOf('2026-11-24')).toBe('2026-11-23');
    expect(weekStartOf('2026-11-29')).toBe('2026-11-23'); // Sunday ends the week
    expect(weekStartOf('2026-11-30')).toBe('2026-11-30');
    // Across a month and a year end.
    expect(weekStartOf('2027-01-02')).toBe('2026-12-28');
    expect(weekStartOf('2024-03-01')).toBe('2024-02-26'); // leap year
  });

  it('counts calendar days, unmoved by daylight saving', () => {
    expect(addDays('2026-03-07', 1)).toBe('2026-03-08');
    expect(addDays('2026-03-08', 1)).toBe('2026-03-09');
    expect(addDays('2026-11-01', -1)).toBe('2026-10-31');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('lists the last 12 Mondays, oldest first, ending with this week', () => {
    const weeks = lastWeekStarts('2026-11-25');
    expect(weeks).toHaveLength(12);
    expect(weeks[11]).toBe('2026-11-23');
    expect(weeks[0]).toBe('2026-09-07');
    for (let i = 1; i < weeks.length; i++) expect(addDays(weeks[i - 1], 7)).toBe(weeks[i]);
    expect(lastWeekStarts('2026-11-25', 2)).toEqual(['2026-11-16', '2026-11-23']);
  });

  it('reads the day on the company’s calendar, not in UTC', () => {
    // Monday 02:30 UTC is still Sunday evening in New York: last week there.
    const instant = new Date('2026-11-30T02:30:00Z');
    expect(dayInZone(instant, 'UTC')).toBe('2026-11-30');
    expect(dayInZone(instant, 'America/New_York')).toBe('2026-11-29');
    expect(weekStartOf(dayInZone(instant, 'America/New_York'))).toBe('2026-11-23');
    expect(dayInZone(new Date('2026-11-29T23:30:00Z'), 'Asia/Tokyo')).toBe('2026-11-30');
  });
});
