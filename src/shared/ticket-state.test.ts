import { describe, expect, it } from 'vitest';
import { isOverdue, localIsoDay, ticketState } from './ticket-state';

const t = (due_date: string | null, status = 'Pending') => ({ due_date, status });

describe('overdue and the state a map point shows (docs/product/field-mode.md, map.md §1)', () => {
  it('overdue: due before today and still Pending', () => {
    expect(isOverdue(t('2026-11-22'), '2026-11-23')).toBe(true);
    expect(isOverdue(t('2026-11-23'), '2026-11-23')).toBe(false);
    expect(isOverdue(t(null), '2026-11-23')).toBe(false);
    expect(isOverdue(t('2026-11-01', 'Complete'), '2026-11-23')).toBe(false);
  });
  it('a timestamp-shaped due date is compared by its day', () => {
    expect(isOverdue(t('2026-11-22T23:59:00Z'), '2026-11-23')).toBe(true);
  });
  it('today is the calendar day of the device', () => {
    expect(localIsoDay(new Date(2026, 0, 5))).toBe('2026-01-05');
    expect(localIsoDay(new Date(2026, 11, 31, 23, 59))).toBe('2026-12-31');
  });
  it('Complete wins over a past due date; Pending past due is Overdue; else Pending', () => {
    expect(ticketState(t('2020-01-01', 'Complete'), '2026-11-23')).toBe('Complete');
    expect(ticketState(t('2026-11-22'), '2026-11-23')).toBe('Overdue');
    expect(ticketState(t('2026-11-23'), '2026-11-23')).toBe('Pending');
    expect(ticketState(t(null), '2026-11-23')).toBe('Pending');
  });
});
