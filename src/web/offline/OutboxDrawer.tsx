import { useState } from 'react';
import { Badge, Button, Card, Drawer, Group, Stack, Text } from '@mantine/core';
import { confirmDialog } from '../components/confirm';
import { saveFile } from '../components/saveFile';
import { ConflictDialog } from './ConflictDialog';
import { useOutbox } from './OfflineSync';
import { outbox } from './outbox';
import type { OutboxEntry, TicketChange } from './outboxLogic';

function describe(e: OutboxEntry): string {
  if (e.kind === 'note') return `Note: ${e.text.length > 80 ? `${e.text.slice(0, 80)}…` : e.text}`;
  if (e.kind === 'photo') return `Photo ${e.fileName}`;
  const parts = [
    ...Object.keys(e.set).map((f) => (f === 'status' ? `Mark ${String(e.set.status).toLowerCase()}` : `Change ${f.replace('_', ' ')}`)),
    ...(Object.keys(e.taskQty).length ? [`${Object.keys(e.taskQty).length} task quantit${Object.keys(e.taskQty).length === 1 ? 'y' : 'ies'}`] : []),
  ];
  return parts.join(', ') || 'Ticket change';
}

const STATE_BADGE: Record<OutboxEntry['state'], { label: string; color: string }> = {
  pending: { label: 'Waiting', color: 'blue' },
  conflict: { label: 'Changed by someone else', color: 'orange' },
  failed: { label: 'Refused', color: 'red' },
  gone: { label: 'Ticket deleted', color: 'gray' },
};

/** A deleted ticket's notes and photos, saved to the phone so nothing typed or taken is lost. */
function saveToDevice(entries: OutboxEntry[]) {
  const notes = entries.filter((e) => e.kind === 'note').map((e) => `${e.label} — ${new Date(e.createdAt).toLocaleString()}\n${e.kind === 'note' ? e.text : ''}\n`);
  if (notes.length) saveFile(new Blob([notes.join('\n')], { type: 'text/plain' }), `linecrew-notes-${entries[0].ticketId}.txt`);
  for (const e of entries) if (e.kind === 'photo') saveFile(e.blob, e.fileName);
}

/** The queue: each waiting change, what became of it, and what the user can do about it. */
export function OutboxDrawer({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { entries, online, syncing } = useOutbox();
  const [resolving, setResolving] = useState<TicketChange | null>(null);
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
        {entries.map((e) => {
          const gone = entries.filter((x) => x.ticketId === e.ticketId && x.state === 'gone');
          return (
            <Card key={e.id} withBorder padding="sm">
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <div>
                  <Text fw={600}>{e.label}</Text>
                  <Text size="sm">{describe(e)}</Text>
                  {e.error && (
                    <Text size="sm" c="red.9">
                      {e.error}
                    </Text>
                  )}
                </div>
                <Badge color={STATE_BADGE[e.state].color} variant="light">
                  {STATE_BADGE[e.state].label}
                </Badge>
              </Group>
              {/* A waiting change can be taken back too (a note typed on the wrong pole). */}
              {(e.state !== 'pending' || !syncing) && (
                <Group gap="xs" mt="xs">
                  {e.state === 'conflict' && e.kind === 'ticket' && <Button size="compact-md" onClick={() => setResolving(e)}>Resolve</Button>}
                  {e.state === 'gone' && (e.kind === 'note' || e.kind === 'photo') && (
                    <Button size="compact-md" variant="light" onClick={() => saveToDevice(gone)}>
                      Save to this device
                    </Button>
                  )}
                  <Button size="compact-md" variant="default" onClick={() => void discard(e)}>
                    Discard
                  </Button>
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
