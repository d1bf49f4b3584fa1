import { useState } from 'react';
import { Button, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { LIMITS } from '../../../../../shared/constants';
import { newKey, notesNewestFirst, type DraftNote, type TicketDraft } from '../ticketDraft';
import { Section, WHEN } from './Section';

/** Notes: newest first; a new note is added to the draft (saved with the ticket) and can be discarded until then. */
export function NotesSection({
  draft,
  update,
  canAnnotate,
  authorName,
}: {
  draft: TicketDraft;
  update: (patch: Partial<TicketDraft>) => void;
  canAnnotate: boolean;
  authorName: string;
}) {
  const [note, setNote] = useState('');
  const addNote = () => {
    const note_text = note.trim();
    if (!note_text) return;
    const n: DraftNote = { key: newKey('note'), id: null, author: authorName, author_id: null, created_date: new Date().toISOString(), note_text };
    update({ notes: [n, ...draft.notes] });
    setNote('');
  };

  return (
    <Section title="Notes">
      {canAnnotate && (
        <Group align="flex-end" gap="xs" wrap="nowrap">
          <Textarea
            label="New note"
            placeholder="Write a note for the crew"
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            autosize
            minRows={1}
            maxRows={6}
            maxLength={LIMITS.textMax}
            style={{ flex: 1 }}
          />
          <Button leftSection={<IconPlus size={16} />} onClick={addNote} disabled={!note.trim()}>
            Add Note
          </Button>
        </Group>
      )}
      {draft.notes.length === 0 ? (
        <Text size="sm" c="dimmed">
          No notes yet.
        </Text>
      ) : (
        <Stack gap="xs" data-testid="notes">
          {notesNewestFirst(draft.notes).map((n) => (
            <Paper key={n.key} withBorder p="xs" bg={n.id == null ? 'var(--mantine-color-yellow-light)' : undefined} data-testid="note">
              <Group justify="space-between" gap="xs">
                <Text size="xs" fw={600}>
                  {n.author || 'Former user'}
                </Text>
                <Text size="xs" c="dimmed">
                  {n.id == null ? 'not saved yet' : WHEN.format(new Date(n.created_date))}
                </Text>
              </Group>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {n.note_text}
              </Text>
              {n.id == null && (
                <Group justify="flex-end">
                  <Button size="compact-xs" variant="subtle" color="red" onClick={() => update({ notes: draft.notes.filter((x) => x.key !== n.key) })}>
                    Discard
                  </Button>
                </Group>
              )}
            </Paper>
          ))}
        </Stack>
      )}
    </Section>
  );
}
