import { Button, Group, Modal, Text } from '@mantine/core';
import type { ConfirmRequest } from './confirm';

/** The question of confirm.tsx: Cancel and the confirm button, which is red for a destructive answer. */
export function ConfirmModal({ opened, request }: { opened: boolean; request: ConfirmRequest }) {
  return (
    <Modal opened={opened} onClose={() => request.answer(false)} title={request.title} centered zIndex={400}>
      <Text size="sm" mb="md">
        {request.message}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => request.answer(false)}>
          {request.cancelLabel}
        </Button>
        <Button color={request.danger ? 'red' : undefined} onClick={() => request.answer(true)}>
          {request.confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
