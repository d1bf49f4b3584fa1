import { describe, expect, it } from 'vitest';
import { toIsoDate } from './dates';
import { jobFieldsSchema } from './jobs.schemas';
import { MSG } from './messages';

describe('toIsoDate', () => {
  it('reads a calendar date, a US date and a timestamp whose time is real', () => {
    expect(toIsoDate('2026-12-31')).toBe('2026-12-31');
    expect(toIsoDate('12/31/2026')).toBe('2026-12-31');
    for (const s of ['2026-12-31T00:00', '2026-12-31T23:59', '2026-12-31T23:59:59', '2026-12-31T23:59:59.999Z', '2026-12-31T08:00:00+05:30', '2026-12-31 10:15:00', '2026-12-31T10:15:00-0400']) {
      expect(toIsoDate(s), s).toBe('2026-12-31');
    }
  });

  it('refuses an impossible time instead of keeping the date (2026-12-31T25:00 is no moment)', () => {
    for (const s of ['2026-12-31T25:00', '2026-12-31T24:00', '2026-12-31T23:60', '2026-12-31T23:59:60', '2026-12-31T9:00', '2026-12-31T', '2026-12-31Tnoon', '2026-12-31 later', '2026-12-31T10:00+25:00', '2026-12-31T10:00:00.', '2026-12-31x']) {
      expect(toIsoDate(s), s).toBeNull();
    }
  });

  it('still refuses impossible days', () => {
    expect(toIsoDate('2026-02-29')).toBeNull();
    expect(toIsoDate('2026-02-29T10:00')).toBeNull();
    expect(toIsoDate('2028-02-29')).toBe('2028-02-29');
  });
});

describe('the due date of a job save', () => {
  const fields = { job_number: 'J-1', selected_utility_id: 1, work_packet_url: '/files/1/work_packet/x/p.pdf' };
  it('answers the due-date message for an impossible time', () => {
    const bad = jobFieldsSchema.safeParse({ ...fields, due_date: '2026-12-31T25:00' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['due_date'], message: MSG.jobDueDateRequired });
    expect(jobFieldsSchema.parse({ ...fields, due_date: '2026-12-31T23:00' }).due_date).toBe('2026-12-31');
  });
});
