import { useSyncExternalStore } from 'react';
import { SHELL_MSG } from '../../shared/messages-shell';
import { lazyDialog } from './lazyDialog';

export interface ConfirmRequest {
  title: string;
  message: string;
  confirmLabel: string;
  cancelLabel: string;
  danger: boolean;
  /** false once answered: the dialog stays mounted for its closing transition and focus return. */
  opened: boolean;
  answer: (yes: boolean) => void;
}

// One question at a time, kept outside React so any handler can ask (await confirmDialog(...)).
let current: ConfirmRequest | null = null;
const listeners = new Set<() => void>();
const publish = (next: ConfirmRequest | null) => {
  current = next;
  listeners.forEach((l) => l());
};
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** A yes/no question in a modal (stacks above an open modal); resolves true on confirm. */
export function confirmDialog({
  title,
  message,
  confirmLabel,
  cancelLabel = 'Cancel',
  danger = false,
}: {
  title: string;
  message: string;
  confirmLabel: string;
  cancelLabel?: string;
  danger?: boolean;
}): Promise<boolean> {
  return new Promise((resolve) => {
    // A question still open is answered "no" by a newer one: its caller never waits forever.
    current?.answer(false);
    let answered = false;
    const request: ConfirmRequest = {
      title,
      message,
      confirmLabel,
      cancelLabel,
      danger,
      opened: true,
      answer: (yes) => {
        if (answered) return;
        answered = true;
        resolve(yes);
        if (current === request) publish({ ...request, opened: false });
      },
    };
    publish(request);
  });
}

/**
 * The one "close with unsaved changes?" question of every form and window; true = discard.
 * `note` says what is NOT lost (the ticket window's photos, saved as they are added).
 */
export const confirmDiscard = (note?: string) =>
  confirmDialog({ title: 'Unsaved changes', message: note ? `${SHELL_MSG.unsavedChanges} ${note}` : SHELL_MSG.unsavedChanges, confirmLabel: 'Close anyway', cancelLabel: 'Keep editing', danger: true });

// The dialog (Mantine's Modal, its focus trap and scroll lock) loads on the first question, not
// with every page: most visits never ask one (the initial JavaScript budgets, docs/product/scale.md §3).
const ConfirmModal = lazyDialog(() => import('./ConfirmModal').then((m) => m.ConfirmModal));

/** Mounted once in the app shell: shows the open question, if any. */
export function ConfirmHost() {
  const request = useSyncExternalStore(subscribe, () => current);
  return request ? <ConfirmModal opened={request.opened} request={request} /> : null;
}
