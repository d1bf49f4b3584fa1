import { describe, expect, it } from 'vitest';
import type { CrewMember } from './crew.schemas';
import { CREW_SORT_DEFAULT, matchesSearch, sortCrew, visibleCrew } from './crew.list';
import { nextSort } from './sorting';

const member = (id: number, over: Partial<CrewMember>): CrewMember => ({
  id,
  first_name: 'A',
  last_name: 'A',
  email: `m${id}@example.com`,
  phone_number: null,
  role_id: 5,
  display_role_name: 'Lineman',
  crew_status: 1,
  foreman: null,
  foreman_firstname: null,
  foreman_lastname: null,
  status_name: 'Active',
  date_created: '2026-01-01T00:00:00.000Z',
  invitation_pending: false,
  ...over,
});

const crew = [
  member(1, { first_name: 'liam', last_name: 'Lineman', date_created: '2026-03-01T00:00:00Z', foreman_firstname: 'Frank', foreman_lastname: 'Foreman' }),
  member(2, { first_name: 'Ava', last_name: 'Apprentice', date_created: '2026-01-15T00:00:00Z', phone_number: '5550123' }),
  member(3, { first_name: 'Ray', last_name: 'Retired', crew_status: 2, status_name: 'Inactive', date_created: '2025-12-01T00:00:00Z' }),
  member(4, { first_name: 'Zed', last_name: 'Zulu', display_role_name: 'Admin', date_created: '2026-02-01T00:00:00Z' }),
];

describe('crew list rules', () => {
  it('defaults to first_name, descending', () => {
    expect(CREW_SORT_DEFAULT).toEqual({ column: 'first_name', direction: 'desc' });
  });

  it('sorts names case-insensitively in either direction', () => {
    expect(sortCrew(crew, 'first_name', 'desc').map((m) => m.id)).toEqual([4, 3, 1, 2]);
    expect(sortCrew(crew, 'first_name', 'asc').map((m) => m.id)).toEqual([2, 1, 3, 4]);
  });

  it('sorts Date Added by time', () => {
    expect(sortCrew(crew, 'date_created', 'asc').map((m) => m.id)).toEqual([3, 2, 4, 1]);
  });

  it('flips the current column and starts a new one ascending', () => {
    expect(nextSort({ column: 'first_name', direction: 'desc' }, 'first_name')).toEqual({ column: 'first_name', direction: 'asc' });
    expect(nextSort({ column: 'first_name', direction: 'desc' }, 'email')).toEqual({ column: 'email', direction: 'asc' });
  });

  it('filters by status (Active by default in the page) and searches every shown column', () => {
    const opts = { search: '', column: 'first_name', direction: 'asc' } as const;
    expect(visibleCrew(crew, { ...opts, status: 'Active' }).map((m) => m.id)).toEqual([2, 1, 4]);
    expect(visibleCrew(crew, { ...opts, status: 'Inactive' }).map((m) => m.id)).toEqual([3]);
    expect(visibleCrew(crew, { ...opts, status: 'All' })).toHaveLength(4);
    expect(matchesSearch(crew[0], 'frank fore')).toBe(true);
    expect(matchesSearch(crew[1], '0123')).toBe(true);
    expect(matchesSearch(crew[3], 'admin')).toBe(true);
    expect(matchesSearch(crew[0], 'LIAM LINE')).toBe(true);
    expect(matchesSearch(crew[0], 'nobody')).toBe(false);
  });
});
