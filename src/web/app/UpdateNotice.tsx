import { Button, Group, Notification } from '@mantine/core';

/** "A new version is ready" with Reload (UpdatePrompt.tsx says when). */
export default function UpdateNotice({ onReload, onClose }: { onReload: () => void; onClose: () => void }) {
  return (
    <Notification
      title="A new version is ready"
      onClose={onClose}
      withBorder
      style={{ position: 'fixed', bottom: 16, left: 16, right: 16, maxWidth: 420, marginInline: 'auto', zIndex: 400 }}
    >
      <Group justify="space-between" mt={4}>
        Reload to use it; your changes on this device are kept.
        <Button size="compact-sm" onClick={onReload}>
          Reload
        </Button>
      </Group>
    </Notification>
  );
}
