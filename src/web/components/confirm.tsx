import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { MSG } from '../../shared/messages';

/** A yes/no question in a Mantine modal (stacks above an open modal); resolves true on confirm. */
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
    modals.openConfirmModal({
      title,
      centered: true,
      zIndex: 400,
      children: <Text size="sm">{message}</Text>,
      labels: { confirm: confirmLabel, cancel: cancelLabel },
      confirmProps: danger ? { color: 'red' } : undefined,
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    });
  });
}

/** The one "close with unsaved changes?" question of every form and window; true = discard. */
export const confirmDiscard = () =>
  confirmDialog({ title: 'Unsaved changes', message: MSG.unsavedChanges, confirmLabel: 'Close anyway', cancelLabel: 'Keep editing', danger: true });
