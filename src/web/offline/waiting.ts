import { fullName } from '../../shared/names';
import type { SessionUser } from '../../shared/auth.schemas';
import { currentUser } from '../api/session';
import { offlineDb } from './db';
import type { OutboxEntry } from './outboxLogic';

/**
 * Whose changes wait on this device (docs/product/sessions-and-safety.md §5 "queued work survives"). The outbox keeps each
 * user's changes apart and sends them only while that user is signed in; these helpers let the
 * sign-in page, a shared device's next user and Logout say so, in field words.
 */

/** The signed-in user's name, stored with each change they queue. */
export function ownerOf(userId: number): OutboxEntry['owner'] {
  const me = currentUser();
  return me && me.id === userId ? { firstName: me.first_name, lastName: me.last_name } : undefined;
}

export interface Waiting {
  userId: number;
  /** "Jane Foreman", or null when the changes were queued before names were kept. */
  name: string | null;
  firstName: string | null;
  count: number;
}

/**
 * Changes waiting on this device, per user, the most first. `known` names a user whose changes
 * carry no name (the one whose session just ended, whom the page still knows).
 */
export function groupWaiting(entries: readonly Pick<OutboxEntry, 'userId' | 'owner'>[], known: SessionUser | null = null): Waiting[] {
  const by = new Map<number, Waiting>();
  for (const e of entries) {
    const w = by.get(e.userId) ?? { userId: e.userId, name: null, firstName: null, count: 0 };
    w.count++;
    if (e.owner) {
      w.name = fullName(e.owner.firstName, e.owner.lastName);
      w.firstName = e.owner.firstName;
    } else if (!w.name && known?.id === e.userId) {
      w.name = fullName(known.first_name, known.last_name);
      w.firstName = known.first_name;
    }
    by.set(e.userId, w);
  }
  return [...by.values()].sort((a, b) => b.count - a.count || a.userId - b.userId);
}

/** Every user's waiting changes on this device (none where IndexedDB is unavailable). */
export async function waitingOnDevice(known: SessionUser | null = null): Promise<Waiting[]> {
  try {
    const db = await offlineDb();
    return groupWaiting(await db.getAll('outbox'), known);
  } catch {
    return [];
  }
}

const changes = (n: number) => (n === 1 ? '1 change' : `${n} changes`);

/** "3 changes from Jane Foreman are waiting on this device — they will be sent after Jane signs in again." */
export function waitingText(w: Waiting): string {
  const are = w.count === 1 ? 'is' : 'are';
  if (!w.name) return `${changes(w.count)} from another user ${are} waiting on this device — they will be sent after that person signs in again.`;
  return `${changes(w.count)} from ${w.name} ${are} waiting on this device — ${w.count === 1 ? 'it' : 'they'} will be sent after ${w.firstName} signs in again.`;
}

/** What Logout asks before it signs out a user with changes still waiting. */
export function logoutWarning(count: number, me: { first_name: string; last_name: string }): string {
  return (
    `${changes(count)} you made ${count === 1 ? 'has' : 'have'} not reached the office yet. If you log out, ${count === 1 ? 'it stays' : 'they stay'} on this device ` +
    `and ${count === 1 ? 'is' : 'are'} sent the next time ${fullName(me.first_name, me.last_name)} signs in here. ` +
    'Nobody else who signs in on this device can send them.'
  );
}
