import { describe, expect, it } from 'vitest';
import { clearToDig, companyToday, earliestExpiry, expiryLabel, expiryOf, ticketExpiry } from './dig-safe';

const TODAY = '2026-11-26';
const ticket = (over: Partial<Parameters<typeof clearToDig>[0]> = {}) => ({
  status: 'Pending',
  due_date: null,
  dig_safe_required: 1,
  dig_safe_url: null,
  dig_safe_number: 'DS-1',
  dig_safe_expires_on: '2026-12-31',
  ...over,
});

describe('clear to dig (docs/product/records.md §5)', () => {
  it('is null when dig safe is not required, or the ticket is Complete', () => {
    expect(clearToDig(ticket({ dig_safe_required: 0, dig_safe_number: null, dig_safe_expires_on: null }), TODAY)).toEqual({ clear_to_dig: null, clear_to_dig_reason: null });
    expect(clearToDig(ticket({ status: 'Complete', dig_safe_expires_on: '2020-01-01' }), TODAY).clear_to_dig).toBeNull();
  });

  it('says "No dig safe ticket" when there is no record, and names a record without an expiry date', () => {
    expect(clearToDig(ticket({ dig_safe_number: null, dig_safe_expires_on: null }), TODAY)).toEqual({ clear_to_dig: false, clear_to_dig_reason: 'No dig safe ticket' });
    expect(clearToDig(ticket({ dig_safe_expires_on: null }), TODAY).clear_to_dig_reason).toBe('Dig safe ticket has no expiry date');
    expect(clearToDig(ticket({ dig_safe_number: null, dig_safe_url: '/f/ds.pdf', dig_safe_expires_on: null }), TODAY).clear_to_dig_reason).toBe(
      'Dig safe ticket has no expiry date',
    );
  });

  it('is not clear once expired, with the date', () => {
    expect(clearToDig(ticket({ dig_safe_expires_on: '2026-11-20' }), TODAY)).toEqual({ clear_to_dig: false, clear_to_dig_reason: 'Dig safe expired 11/20/2026' });
    expect(clearToDig(ticket({ dig_safe_expires_on: '2026-11-25' }), TODAY).clear_to_dig).toBe(false);
  });

  it('is clear on the day it expires when there is no due date (expires today is still valid today)', () => {
    expect(clearToDig(ticket({ dig_safe_expires_on: TODAY }), TODAY)).toEqual({ clear_to_dig: true, clear_to_dig_reason: null });
  });

  it('is not clear when it expires the day before the due date, clear when it expires on it', () => {
    expect(clearToDig(ticket({ dig_safe_expires_on: '2026-12-14', due_date: '2026-12-15' }), TODAY)).toEqual({
      clear_to_dig: false,
      clear_to_dig_reason: 'Dig safe expires 12/14/2026, before the due date 12/15/2026',
    });
    expect(clearToDig(ticket({ dig_safe_expires_on: '2026-12-15', due_date: '2026-12-15' }), TODAY).clear_to_dig).toBe(true);
  });

  it('an overdue ticket with a valid dig safe is clear (today is after the due date)', () => {
    expect(clearToDig(ticket({ dig_safe_expires_on: '2026-11-30', due_date: '2026-11-01' }), TODAY).clear_to_dig).toBe(true);
  });
});

describe('expiry badges', () => {
  it('counts whole calendar days; expires today is 0 days, yesterday is Expired', () => {
    expect(expiryOf(TODAY, TODAY)).toEqual({ state: 'expiring', expires_on: TODAY, days: 0 });
    expect(expiryLabel(expiryOf(TODAY, TODAY)!)).toBe('Expires today');
    expect(expiryLabel(expiryOf('2026-11-27', TODAY)!)).toBe('Expires in 1 day');
    expect(expiryLabel(expiryOf('2026-12-03', TODAY)!)).toBe('Expires in 7 days');
    expect(expiryOf('2026-12-04', TODAY)).toBeNull();
    expect(expiryLabel(expiryOf('2026-11-25', TODAY)!)).toBe('Expired');
    expect(expiryOf(null, TODAY)).toBeNull();
  });

  it('counts across a daylight-saving change and a month end as calendar days', () => {
    expect(expiryOf('2026-11-03', '2026-10-31')).toMatchObject({ days: 3 });
    expect(expiryOf('2027-03-16', '2027-03-13')).toMatchObject({ days: 3 });
  });

  it('a ticket shows its most urgent expiry among permits and dig safe; none once Complete', () => {
    expect(ticketExpiry({ status: 'Pending', permit_expires_on: '2026-11-20', dig_safe_expires_on: '2026-11-28' }, TODAY)).toMatchObject({ state: 'expired' });
    expect(ticketExpiry({ status: 'Pending', permit_expires_on: null, dig_safe_expires_on: '2026-11-28' }, TODAY)).toMatchObject({ days: 2 });
    expect(ticketExpiry({ status: 'Pending', permit_expires_on: '2027-01-01', dig_safe_expires_on: null }, TODAY)).toBeNull();
    expect(ticketExpiry({ status: 'Complete', permit_expires_on: '2026-11-20', dig_safe_expires_on: null }, TODAY)).toBeNull();
    expect(earliestExpiry([{ expires_on: null }, { expires_on: '2027-01-02' }, { expires_on: '2026-12-01' }])).toBe('2026-12-01');
  });
});

describe('companyToday', () => {
  it("is the company's calendar day (America/New_York), not UTC's", () => {
    // 03:00 UTC on Nov 27 is still Nov 26 in New York.
    expect(companyToday(new Date('2026-11-27T03:00:00Z'))).toBe('2026-11-26');
    expect(companyToday(new Date('2026-11-27T06:00:00Z'))).toBe('2026-11-27');
    expect(companyToday(new Date('2026-11-27T03:00:00Z'), 'UTC')).toBe('2026-11-27');
  });
});
