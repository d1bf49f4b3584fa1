import { useEffect, useState } from 'react';
import { Button, Group, Notification } from '@mantine/core';
import { onUpdateReady } from './serviceWorker';

/**
 * A new release is installed beside the running one (service worker waiting): "A new version is
 * ready" with Reload. Never reloaded without asking: a crew may be typing a note. Checked again
 * every hour while the app stays open (serviceWorker.ts), so an app left open on a phone is never
 * stale forever.
 */
export function UpdatePrompt() {
  const [activate, setActivate] = useState<(() => void) | null>(null);
  useEffect(() => onUpdateReady((go) => setActivate(() => go)), []);
  if (!activate) return null;
  return (
    <Notification
      title="A new version is ready"
      onClose={() => setActivate(null)}
      withBorder
      style={{ position: 'fixed', bottom: 16, left: 16, right: 16, maxWidth: 420, marginInline: 'auto', zIndex: 400 }}
    >
      <Group justify="space-between" mt={4}>
        Reload to use it; your changes on this device are kept.
        <Button size="compact-sm" onClick={activate}>
          Reload
        </Button>
      </Group>
    </Notification>
  );
}
