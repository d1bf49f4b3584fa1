import { Button, Group } from '@mantine/core';

/**
 * The Close and Save buttons that end every form (Save submits it). Close stays disabled while a
 * save is on the way: closing then would leave its answer nowhere to be shown.
 */
export function CloseSaveButtons({ onClose, canSave, saving }: { onClose: () => void; canSave: boolean; saving: boolean }) {
  return (
    <Group gap="sm">
      <Button variant="default" onClick={onClose} disabled={saving}>
        Close
      </Button>
      <Button type="submit" disabled={!canSave} loading={saving}>
        Save
      </Button>
    </Group>
  );
}
