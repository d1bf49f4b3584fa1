import { useState } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { IconCloudCheck, IconCloudOff, IconRefresh } from '@tabler/icons-react';
import { queueCounts, statusText } from './outboxStatus';
import { useOutbox } from './OfflineSync';
import { lazyDialog } from '../components/lazyDialog';

// The queue (a drawer, and the conflict dialog inside it) loads when first opened: every page shows this line.
const OutboxDrawer = lazyDialog(() => import('./OutboxDrawer').then((m) => m.OutboxDrawer));

/**
 * The line under the header that tells a crew where their work is (docs/product/field-mode.md §5): "Offline",
 * "N changes waiting to sync", "All changes synced". An element with role="status", so a screen
 * reader announces each change without moving focus. "Review" opens the queue when a change
 * needs the user (a conflict, a refusal, a deleted ticket) or when they want to see it.
 */
export function SyncStatus() {
  const { entries, online, synced } = useOutbox();
  const [open, setOpen] = useState(false);
  const text = statusText({ online, ...queueCounts(entries), synced });
  const Icon = !online ? IconCloudOff : entries.length ? IconRefresh : IconCloudCheck;
  return (
    <>
      {/* On a phone "Offline · 1 change waiting to sync · 2 need you" wraps inside its text; Review stays whole beside it.
          It sticks under the header (--lc-header-height, app.css): a crew halfway down a ticket still sees
          whether the note just added has reached the office, and can reach Review. */}
      <Group
        pos="sticky"
        top="var(--lc-header-height)"
        style={{ zIndex: 99 }}
        gap="xs"
        justify="center"
        wrap="nowrap"
        px="sm"
        py={4}
        bg={!online ? 'yellow.1' : entries.length ? 'blue.0' : 'green.0'}
        display={text ? 'flex' : 'none'}
        data-testid="sync-status-bar"
      >
        {text && <Icon size={16} aria-hidden style={{ flex: 'none' }} />}
        <Text size="sm" role="status" aria-live="polite" miw={0}>
          {text}
        </Text>
        {entries.length > 0 && (
          <Button size="compact-sm" variant="subtle" onClick={() => setOpen(true)} style={{ flex: 'none' }}>
            Review
          </Button>
        )}
      </Group>
      <OutboxDrawer opened={open} onClose={() => setOpen(false)} />
    </>
  );
}
