import { Button, Group, Notification } from '@mantine/core';
import { useRegisterSW } from 'virtual:pwa-register/react';

/**
 * A new release is installed beside the running one (service worker waiting): "A new version is
 * ready" with Reload. Never reloaded without asking: a crew may be typing a note. Checked again
 * every hour while the app stays open, so an app left open on a phone is never stale forever.
 */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_url, registration) {
      if (registration) setInterval(() => void registration.update().catch(() => undefined), 60 * 60 * 1000);
    },
  });
  if (!needRefresh) return null;
  return (
    <Notification
      title="A new version is ready"
      onClose={() => setNeedRefresh(false)}
      withBorder
      style={{ position: 'fixed', bottom: 16, left: 16, right: 16, maxWidth: 420, marginInline: 'auto', zIndex: 400 }}
    >
      <Group justify="space-between" mt={4}>
        Reload to use it; your changes on this device are kept.
        <Button size="compact-sm" onClick={() => void updateServiceWorker(true)}>
          Reload
        </Button>
      </Group>
    </Notification>
  );
}
