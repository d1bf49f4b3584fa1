import { useState } from 'react';
import { Anchor, Badge, Button, Card, Drawer, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { confirmDialog } from '../components/confirm';
import { ConflictDialog } from './ConflictDialog';
import { describe, heldReason, saveHeld } from './held';
import { useOutbox } from './OfflineSync';
import { outbox } from './outbox';
import { isPhotoOverLimit, isSavable, mayDiscard, type OutboxEntry, type TicketChange } from './outboxLogic';

const STATE_BADGE: Record<OutboxEntry['state'], { label: string; color: string }> = {
  pending: { label: 'Waiting', color: 'blue' },
  conflict: { label: 'Changed by someone else', color: 'orange' },
  failed: { label: 'Refused', color: 'red' },
  gone: { label: 'Ticket deleted', color: 'gray' },
};

const badgeOf = (e: OutboxEntry) => (isPhotoOverLimit(e) ? { label: 'Ticket full', color: 'orange' } : STATE_BADGE[e.state]);

/**
 * The queue ("Review"): every change at once, what became of it, and what the user can do. What
 * will not sync but holds a crew's work (a deleted ticket's note, a photo over the 10) is saved
 * to the phone first — one "Save all to this device" — and only then offered for discarding.
 */
export function OutboxDrawer({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { entries, online, syncing } = useOutbox();
  const [resolving, setResolving] = useState<TicketChange | null>(null);
  const unsaved = entries.filter((e) => isSavable(e) && e.savedAt == null);
  const discard = async (e: OutboxEntry) => {
    const ok = await confirmDialog({
      title: 'Discard this change?',
      message: `${describe(e)} on ${e.label} will not be sent. This cannot be undone.`,
      confirmLabel: 'Discard',
      danger: true,
    });
    if (ok) await outbox.discard(e.id);
  };
  return (
    <Drawer opened={opened} onClose={onClose} title="Changes waiting to sync" position="bottom" size="auto">
      <Stack gap="sm" pb="md">
        {entries.length === 0 && <Text>Nothing is waiting: every change reached the server.</Text>}
        {unsaved.length > 0 && (
          <Button variant="filled" onClick={() => void saveHeld(unsaved)}>
            Save all to this device
          </Button>
        )}
        {entries.map((e) => {
          const badge = badgeOf(e);
          const reason = heldReason(e);
          return (
            <Card key={e.id} withBorder padding="sm">
              {/* The chip keeps its whole width; the pole and the change wrap beside and below it. */}
              <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
                <Text fw={600} miw={0} style={{ overflowWrap: 'anywhere' }}>
                  {e.label}
                </Text>
                <Badge color={badge.color} variant="light" style={{ flex: 'none' }}>
                  {badge.label}
                </Badge>
              </Group>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {describe(e)}
              </Text>
              {reason && (
                <Text size="sm" c={e.state === 'gone' || isPhotoOverLimit(e) ? undefined : 'red.9'}>
                  {reason}
                </Text>
              )}
              {e.savedAt != null && (
                <Text size="sm" c="dimmed">
                  Saved to this device
                </Text>
              )}
              {/* A waiting change can be taken back too (a note typed on the wrong pole). */}
              {(e.state !== 'pending' || !syncing) && (
                <Group gap="xs" mt="xs">
                  {e.state === 'conflict' && e.kind === 'ticket' && (
                    <Button size="compact-md" onClick={() => setResolving(e)}>
                      Resolve
                    </Button>
                  )}
                  {isSavable(e) && e.savedAt == null && (
                    <Button size="compact-md" variant="light" onClick={() => void saveHeld([e])}>
                      Save to this device
                    </Button>
                  )}
                  {isPhotoOverLimit(e) && (
                    <Anchor component={Link} to={`/work/${e.ticketId}`} onClick={onClose} size="sm" py={6}>
                      Replace a photo on the ticket
                    </Anchor>
                  )}
                  {mayDiscard(e) && (
                    <Button size="compact-md" variant="default" onClick={() => void discard(e)}>
                      Discard
                    </Button>
                  )}
                </Group>
              )}
            </Card>
          );
        })}
        {entries.some((e) => e.state === 'pending') && (
          <Button variant="light" loading={syncing} disabled={!online} onClick={() => void outbox.flush()}>
            {online ? 'Sync now' : 'Waiting for a connection'}
          </Button>
        )}
      </Stack>
      {resolving && <ConflictDialog entry={resolving} onClose={() => setResolving(null)} />}
    </Drawer>
  );
}
