import { clearToDig, type DigFields } from '../../shared/dig-safe';
import { MSG } from '../../shared/messages';
import { confirmDialog } from './confirm';

// Apart from DigSafe.tsx, whose badges My Work shows: the question needs MSG, the whole message
// table (~6 KB gzip), which My Work's first load does not (docs/benchmarks.md "Initial JavaScript").

/**
 * Before marking a ticket complete: a ticket not clear to dig asks first (docs/product/records.md §5: nothing is
 * blocked silently, nothing is completed unseen). Answers true to go ahead.
 */
export async function confirmCompleteDig(ticket: Omit<DigFields, 'permit_expires_on'>, today: string): Promise<boolean> {
  const clear = clearToDig(ticket, today);
  if (clear.clear_to_dig !== false) return true;
  return confirmDialog({
    title: 'Not clear to dig',
    message: MSG.completeNotClearToDig(clear.clear_to_dig_reason ?? 'no valid dig safe ticket'),
    confirmLabel: 'Mark complete anyway',
    cancelLabel: 'Cancel',
    danger: true,
  });
}
