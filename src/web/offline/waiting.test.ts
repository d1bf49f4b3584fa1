import { describe, expect, it } from 'vitest';
import { groupWaiting, logoutWarning, waitingText } from './waiting';

const jane = { firstName: 'Jane', lastName: 'Foreman' };

describe('whose changes wait on this device', () => {
  it('groups the queue by user, the most first, with the name kept on each change', () => {
    const entries = [
      { userId: 3, owner: jane },
      { userId: 5, owner: { firstName: 'Bo', lastName: 'Lineman' } },
      { userId: 3, owner: jane },
      { userId: 3, owner: jane },
    ];
    expect(groupWaiting(entries)).toEqual([
      { userId: 3, name: 'Jane Foreman', firstName: 'Jane', count: 3 },
      { userId: 5, name: 'Bo Lineman', firstName: 'Bo', count: 1 },
    ]);
  });

  it('names changes queued without a name after the user whose session just ended, else "another user"', () => {
    const known = { id: 3, first_name: 'Jane', last_name: 'Foreman', email: 'j@x', role_id: 3, company_id: 1, company_time_zone: 'America/New_York' };
    expect(groupWaiting([{ userId: 3 }, { userId: 9 }], known).map((w) => w.name)).toEqual(['Jane Foreman', null]);
  });

  it('says whose changes wait and when they go, in field words', () => {
    expect(waitingText({ userId: 3, name: 'Jane Foreman', firstName: 'Jane', count: 3 })).toBe(
      '3 changes from Jane Foreman are waiting on this device — they will be sent after Jane signs in again.',
    );
    expect(waitingText({ userId: 3, name: 'Jane Foreman', firstName: 'Jane', count: 1 })).toBe(
      '1 change from Jane Foreman is waiting on this device — it will be sent after Jane signs in again.',
    );
    expect(waitingText({ userId: 9, name: null, firstName: null, count: 2 })).toBe(
      '2 changes from another user are waiting on this device — they will be sent after that person signs in again.',
    );
  });

  it('warns before Logout what happens to the changes waiting', () => {
    expect(logoutWarning(2, { first_name: 'Jane', last_name: 'Foreman' })).toBe(
      '2 changes you made have not reached the office yet. If you log out, they stay on this device and are sent the next time Jane Foreman signs in here. Nobody else who signs in on this device can send them.',
    );
  });
});
