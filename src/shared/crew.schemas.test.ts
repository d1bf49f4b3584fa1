import { schemaResolver } from '@mantine/form';
import { describe, expect, it } from 'vitest';
import { crewCreate, crewUpdate, emptyCrewForm, needsForeman, type CrewFormValues } from './crew.schemas';
import { MSG } from './messages';

/** Field → first message, as the Add/Edit User form (src/web/features/crew/CrewModal) checks its values. */
const crewFormErrors = (values: CrewFormValues) => schemaResolver(crewCreate, { sync: true })(values);

const valid: CrewFormValues = {
  crew_status: 1,
  role_id: 5,
  foreman: 3,
  first_name: 'Nina',
  last_name: 'Newhire',
  phone_number: '',
  email: 'nina@example.com',
};

describe('crew form rules (docs/product/rules.md §3.1 Crew)', () => {
  it('a new form starts active with nothing chosen, and lists every missing field', () => {
    const empty = emptyCrewForm();
    expect(empty).toMatchObject({ crew_status: 1, role_id: null, foreman: null });
    expect(crewFormErrors(empty)).toEqual({ first_name: MSG.firstName, last_name: MSG.lastName, email: MSG.email, role_id: MSG.role });
  });

  it('accepts a complete lineman', () => {
    expect(crewFormErrors(valid)).toEqual({});
  });

  it.each([
    ['first_name', { first_name: 'N' }, MSG.firstName],
    ['first_name', { first_name: ' N ' }, MSG.firstName],
    ['last_name', { last_name: 'X' }, MSG.lastName],
    ['email', { email: 'nina@' }, MSG.email],
    ['email', { email: 'nina example.com' }, MSG.email],
    ['phone_number', { phone_number: '123456789' }, MSG.phone],
    ['phone_number', { phone_number: '22345678901' }, MSG.phone],
    ['role_id', { role_id: null }, MSG.role],
    ['foreman', { role_id: 4, foreman: null }, MSG.foreman],
    ['foreman', { role_id: 6, foreman: null }, MSG.foreman],
  ] as const)('flags %s for %j', (field, over, message) => {
    expect(crewFormErrors({ ...valid, ...over })[field]).toBe(message);
  });

  it('phone is optional, or exactly 7 or 10 characters', () => {
    for (const phone_number of ['', '5550123', '6175550123']) expect(crewFormErrors({ ...valid, phone_number })).toEqual({});
  });

  it('phone numbers are accepted in the usual formats: 7 or 10 digits, separators and a leading 1 allowed', () => {
    for (const phone_number of ['617-555-0123', '(617) 555-0123', '617.555.0123', '617 555 0123', '+1 617 555 0123', '1-617-555-0123', '555-0123']) {
      expect(crewFormErrors({ ...valid, phone_number }), phone_number).toEqual({});
    }
    for (const phone_number of ['617-555-012', '617-555-01234', 'call me', '617-555-0123 ext 4', '+44 20 7946 0958', '+1 555 0123 000 00']) {
      expect(crewFormErrors({ ...valid, phone_number })).toEqual({ phone_number: MSG.phone });
    }
  });

  it('each field message says its rule', () => {
    expect(MSG.firstName).toMatch(/at least 2 letters/);
    expect(MSG.lastName).toMatch(/at least 2 letters/);
    expect(MSG.phone).toMatch(/7 or 10 digits/);
  });

  it('only Working Foreman, Lineman and Apprentice need a foreman', () => {
    expect([1, 2, 3, 4, 5, 6].filter(needsForeman)).toEqual([4, 5, 6]);
    expect(crewFormErrors({ ...valid, role_id: 2, foreman: null })).toEqual({});
  });

  it('the server schemas trim, default the status to active, and let an edit omit the email', () => {
    const parsed = crewCreate.parse({ ...valid, first_name: '  Nina ', crew_status: undefined });
    expect(parsed).toMatchObject({ first_name: 'Nina', crew_status: 1 });
    expect(crewUpdate.safeParse({ ...valid, email: undefined }).success).toBe(true);
    expect(crewCreate.safeParse({ ...valid, crew_status: 3 }).success).toBe(false);
  });
});
