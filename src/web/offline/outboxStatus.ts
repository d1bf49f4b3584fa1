import type { OutboxEntry } from './outboxLogic';

/**
 * What the status line under the header says of the outbox (docs/product/field-mode.md §5):
 * on every page, so apart from the outbox's other rules (outboxLogic.ts), which only the
 * screens that queue, send or show a change load (decision 037).
 */

/** Will not be sent any more (refused, or its ticket deleted): never "waiting to sync". */
export function isHeld(e: OutboxEntry): boolean {
  return e.state === 'failed' || e.state === 'gone';
}

/**
 * "Offline", "N changes waiting to sync", both, or "All changes synced" once the queue empties.
 * `waiting` counts what will still be sent (a conflict too, once chosen); `needsYou` what needs
 * a choice or a save (conflicts, refusals, deleted tickets). Held changes are never "waiting".
 */
export function statusText({ online, waiting, needsYou = 0, synced }: { online: boolean; waiting: number; needsYou?: number; synced: boolean }): string {
  const parts: string[] = [];
  if (waiting > 0) parts.push(waiting === 1 ? '1 change waiting to sync' : `${waiting} changes waiting to sync`);
  if (needsYou > 0) {
    const noun = waiting > 0 ? '' : needsYou === 1 ? ' change' : ' changes';
    parts.push(`${needsYou}${noun} need${needsYou === 1 ? 's' : ''} you`);
  }
  if (!online) return ['Offline', ...parts].join(' · ');
  if (parts.length) return parts.join(' · ');
  return synced ? 'All changes synced' : '';
}

/** The counts statusText reads, from the queue. */
export function queueCounts(entries: readonly OutboxEntry[]): { waiting: number; needsYou: number } {
  return {
    waiting: entries.filter((e) => !isHeld(e)).length,
    needsYou: entries.filter((e) => e.state !== 'pending').length,
  };
}
