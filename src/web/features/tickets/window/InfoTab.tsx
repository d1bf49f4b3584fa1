import { useState } from 'react';
import { ActionIcon, Anchor, Badge, Button, Divider, Group, Paper, Select, SimpleGrid, Stack, TagsInput, Text, Textarea, TextInput, Title, Tooltip } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconCalendar, IconCircleCheck, IconPlus, IconRotate, IconTrash } from '@tabler/icons-react';
import { LIMITS, TICKET_STATUS } from '../../../../shared/constants';
import { isoToUs, toIsoDate } from '../../../../shared/dates';
import { formatGeo } from '../../../../shared/geo';
import { fullName } from '../../../../shared/names';
import { UploadField } from '../../../components/upload/UploadField';
import { usePermitTypes } from '../api/permitTypes';
import { useWorkingForemen } from '../api/workingForemen';
import { GeoInput, UseMyLocation } from './GeoInput';
import { ReadField } from './ReadField';
import type { FormErrors } from '@mantine/form';
import { fieldError, newKey, notesNewestFirst, type DraftNote, type DraftPermit, type TicketDraft } from './ticketDraft';

const text = (v: string | null | undefined) => v ?? '';
const orNull = (v: string) => (v.trim() === '' ? null : v);
const WHEN = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** A document a read-only person can open (or the state of it when there is none). */
function ReadDoc({ label, url, name, required }: { label: string; url: string | null; name: string | null; required?: number }) {
  return (
    <ReadField label={label}>
      {url ? (
        <Anchor href={url} target="_blank" rel="noreferrer">
          {name || label}
        </Anchor>
      ) : required === undefined ? null : required ? (
        'Required, no document yet'
      ) : (
        'Not required'
      )}
    </ReadField>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Title order={5}>{title}</Title>
        {children}
      </Stack>
    </Paper>
  );
}

/**
 * SPEC §2/§3/§4 Info tab: where and what, who and when, work orders, notes, permits, the dig-safe
 * and NRA documents (uploading one sets its flag to 1, removing it sets 0), EHASP, ambulance
 * meet-up and the Mark Complete action. `errors`: a refused save's messages, by path of the draft.
 */
export function InfoTab({
  draft,
  update,
  errors,
  canEdit,
  statusLocked = false,
  canAnnotate,
  authorName,
  onMarkStatus,
  saving,
  onBusy,
  images,
}: {
  draft: TicketDraft;
  update: (patch: Partial<TicketDraft>) => void;
  errors: FormErrors;
  canEdit: boolean;
  /** A billed ticket not unlocked: no Mark Complete / Reopen (DESIGN §7.3). */
  statusLocked?: boolean;
  canAnnotate: boolean;
  authorName: string;
  onMarkStatus: (status: 'Pending' | 'Complete') => void;
  saving: boolean;
  onBusy: (busy: boolean) => void;
  images: React.ReactNode;
}) {
  const foremen = useWorkingForemen();
  const permitTypes = usePermitTypes();
  const [note, setNote] = useState('');
  const ro = !canEdit;
  const complete = draft.status === TICKET_STATUS.COMPLETE;
  const err = (path: string) => fieldError(errors, path);
  // The ticket's free texts: '' is kept as null; a refused save's message shows under the field.
  const textProps = (field: 'street_address' | 'description' | 'ehasp' | 'ambulance_meetup') => ({
    value: text(draft[field]),
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => update({ [field]: orNull(e.currentTarget.value) }),
    error: err(field),
  });

  const addNote = () => {
    const note_text = note.trim();
    if (!note_text) return;
    const n: DraftNote = { key: newKey('note'), id: null, author: authorName, author_id: null, created_date: new Date().toISOString(), note_text };
    update({ notes: [n, ...draft.notes] });
    setNote('');
  };
  const setPermit = (key: string, patch: Partial<DraftPermit>) =>
    update({ permits: draft.permits.map((p) => (p.key === key ? { ...p, ...patch } : p)) });

  return (
    <Stack gap="md">
      <Paper withBorder p="sm" bg={complete ? 'var(--mantine-color-green-light)' : undefined}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs">
            <Text fw={600}>Status</Text>
            <Badge color={complete ? 'green' : 'gray'} size="lg" variant={complete ? 'filled' : 'light'}>
              {draft.status}
            </Badge>
            {complete && draft.actual_completion_date && (
              <Text size="sm" c="dimmed">
                completed {WHEN.format(new Date(draft.actual_completion_date))}
              </Text>
            )}
          </Group>
          {canEdit && !statusLocked && draft.id != null &&
            (complete ? (
              <Button variant="default" leftSection={<IconRotate size={16} />} onClick={() => onMarkStatus('Pending')} loading={saving}>
                Reopen Ticket
              </Button>
            ) : (
              <Button color="green" leftSection={<IconCircleCheck size={16} />} onClick={() => onMarkStatus('Complete')} loading={saving}>
                Mark Complete
              </Button>
            ))}
        </Group>
      </Paper>

      <Section title="Location and work">
        {ro ? (
          <>
            <ReadField label="Address">{draft.street_address}</ReadField>
            <SimpleGrid cols={{ base: 2 }} spacing="xs">
              <ReadField label="Latitude">{formatGeo(draft.geo_lat)}</ReadField>
              <ReadField label="Longitude">{formatGeo(draft.geo_lon)}</ReadField>
            </SimpleGrid>
            <ReadField label="Description" multiline>
              {draft.description}
            </ReadField>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
              <ReadField label="WF Crew">{draft.assigned_to_name ?? (draft.assigned_to != null ? `User ${draft.assigned_to}` : 'Unassigned')}</ReadField>
              <ReadField label="Due Date">{isoToUs(draft.due_date)}</ReadField>
            </SimpleGrid>
            <ReadField label="Work Orders">{draft.work_orders.join(', ')}</ReadField>
          </>
        ) : (
          <>
            <TextInput label="Address" {...textProps('street_address')} maxLength={LIMITS.shortTextMax} />
            <SimpleGrid cols={{ base: 2 }} spacing="xs">
              <GeoInput label="Latitude" value={draft.geo_lat} onChange={(v) => update({ geo_lat: v })} min={-90} max={90} error={err('geo_lat')} />
              <GeoInput label="Longitude" value={draft.geo_lon} onChange={(v) => update({ geo_lon: v })} min={-180} max={180} error={err('geo_lon')} />
            </SimpleGrid>
            <UseMyLocation onFound={(geo_lat, geo_lon) => update({ geo_lat, geo_lon })} />
            <Textarea label="Description" {...textProps('description')} autosize minRows={2} maxRows={8} maxLength={LIMITS.textMax} />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
              <Select
                label="WF Crew"
                placeholder="Select..."
                data={[
                  { value: '', label: 'Select...' },
                  ...(foremen.data ?? []).map((f) => ({ value: String(f.id), label: fullName(f.first_name, f.last_name) })),
                  // Keep the current assignee visible even if they are no longer a working foreman.
                  ...(draft.assigned_to != null && !(foremen.data ?? []).some((f) => f.id === draft.assigned_to)
                    ? [{ value: String(draft.assigned_to), label: draft.assigned_to_name ?? `User ${draft.assigned_to}` }]
                    : []),
                ]}
                value={draft.assigned_to != null ? String(draft.assigned_to) : ''}
                onChange={(v) => {
                  const f = (foremen.data ?? []).find((x) => String(x.id) === v);
                  update({ assigned_to: v ? Number(v) : null, assigned_to_name: f ? fullName(f.first_name, f.last_name) : null });
                }}
                allowDeselect={false}
                comboboxProps={{ withinPortal: true }}
                error={err('assigned_to')}
              />
              <DatePickerInput
                label="Due Date"
                valueFormat="MM/DD/YYYY"
                placeholder="MM/DD/YYYY"
                leftSection={<IconCalendar size={16} />}
                maxLevel="decade"
                minDate="0001-01-01"
                value={draft.due_date}
                onChange={(v) => update({ due_date: v ? toIsoDate(v) : null })}
                clearable
                popoverProps={{ withinPortal: true }}
                error={err('due_date')}
              />
            </SimpleGrid>
            <TagsInput
              label="Work Orders"
              description="Type a work order and press Enter"
              value={draft.work_orders}
              onChange={(v) => update({ work_orders: v.map((w) => w.slice(0, LIMITS.shortTextMax)) })}
              clearable
              splitChars={[',']}
              error={err('work_orders')}
            />
          </>
        )}
      </Section>

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

      <Section title="Documents">
        {ro ? (
          <>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <ReadDoc label="Dig Safe" url={draft.dig_safe_url} name={draft.dig_safe_name} required={draft.dig_safe_required} />
              <ReadDoc label="NRA/DNR" url={draft.nra_url} name={draft.nra_name} required={draft.nra_required} />
            </SimpleGrid>
            <Divider label="Permits" labelPosition="left" />
            {draft.permits.length === 0 ? (
              <Text size="sm">No permits.</Text>
            ) : (
              draft.permits.map((p, i) => (
                <SimpleGrid key={p.key} cols={{ base: 1, sm: 2 }} spacing="sm">
                  <ReadField label={`Permit ${i + 1} type`}>{p.permit_type_title}</ReadField>
                  <ReadDoc label="Permit document" url={p.permit_url} name={p.permit_name ?? p.filename} />
                </SimpleGrid>
              ))
            )}
          </>
        ) : (
          <>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <UploadField
                kind="dig_file"
                label="Dig Safe"
                description={draft.dig_safe_required ? 'Required' : 'Not required'}
                value={draft.dig_safe_url ? { url: draft.dig_safe_url, name: draft.dig_safe_name ?? 'Dig Safe document' } : null}
                onChange={(f) =>
                  update(f ? { dig_safe_url: f.url, dig_safe_name: f.name, dig_safe_required: 1 } : { dig_safe_url: null, dig_safe_name: null, dig_safe_required: 0 })
                }
                onBusyChange={onBusy}
                removable
                dropText="Drop the Dig Safe ticket here or click"
              />
              <UploadField
                kind="nra_file"
                label="NRA/DNR"
                description={draft.nra_required ? 'Required' : 'Not required'}
                value={draft.nra_url ? { url: draft.nra_url, name: draft.nra_name ?? 'NRA document' } : null}
                onChange={(f) => update(f ? { nra_url: f.url, nra_name: f.name, nra_required: 1 } : { nra_url: null, nra_name: null, nra_required: 0 })}
                onBusyChange={onBusy}
                removable
                dropText="Drop the NRA/DNR document here or click"
              />
            </SimpleGrid>
            <Divider label="Permits" labelPosition="left" />
            {draft.permits.length === 0 && (
              <Text size="sm" c="dimmed">
                No permits.
              </Text>
            )}
            {draft.permits.map((p, i) => (
              <Paper key={p.key} withBorder p="xs">
                <Stack gap="xs">
                  <Group align="flex-end" gap="xs" wrap="nowrap">
                    <Select
                      label={`Permit ${i + 1} type`}
                      placeholder="Choose a type"
                      data={(permitTypes.data ?? []).map((t) => ({ value: String(t.id), label: t.title }))}
                      value={p.permit_type != null ? String(p.permit_type) : null}
                      onChange={(v) => setPermit(p.key, { permit_type: v ? Number(v) : null, permit_type_title: permitTypes.data?.find((t) => String(t.id) === v)?.title ?? null })}
                      clearable
                      style={{ flex: 1 }}
                      comboboxProps={{ withinPortal: true }}
                      error={err(`permits.${i}.permit_type`)}
                    />
                    <Tooltip label="Remove permit">
                      <ActionIcon variant="subtle" color="red" aria-label={`Remove permit ${i + 1}`} onClick={() => update({ permits: draft.permits.filter((x) => x.key !== p.key) })} mb={4}>
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                  <UploadField
                    kind="permit"
                    label="Permit document"
                    value={p.permit_url ? { url: p.permit_url, name: p.permit_name ?? p.filename ?? 'Permit' } : null}
                    onChange={(f) =>
                      setPermit(
                        p.key,
                        f
                          ? { permit_url: f.url, permit_name: f.name, filename: f.name, permit_file_type: f.type }
                          : // SPEC §4: removing a permit document clears its url, name and type.
                            { permit_url: null, permit_name: null, filename: null, permit_file_type: null, permit_type: null, permit_type_title: null },
                      )
                    }
                    onBusyChange={onBusy}
                    removable
                  />
                </Stack>
              </Paper>
            ))}
            <Group>
              <Button
                variant="light"
                size="xs"
                leftSection={<IconPlus size={14} />}
                onClick={() =>
                  update({
                    permits: [
                      ...draft.permits,
                      { key: newKey('permit'), id: null, permit_type: null, permit_type_title: null, permit_url: null, permit_name: null, permit_file_type: null, filename: null },
                    ],
                  })
                }
              >
                Add Permit
              </Button>
            </Group>
          </>
        )}
      </Section>

      <Section title="Safety">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          {ro ? (
            <>
              <ReadField label="EHASP">{draft.ehasp}</ReadField>
              <ReadField label="Ambulance meet-up" multiline>
                {draft.ambulance_meetup}
              </ReadField>
            </>
          ) : (
            <>
              <TextInput label="EHASP" {...textProps('ehasp')} maxLength={LIMITS.shortTextMax} />
              <Textarea label="Ambulance meet-up" {...textProps('ambulance_meetup')} autosize minRows={1} maxLength={LIMITS.textMax} />
            </>
          )}
        </SimpleGrid>
      </Section>

      {images}
    </Stack>
  );
}
