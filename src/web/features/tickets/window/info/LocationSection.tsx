import { Select, SimpleGrid, TagsInput, Textarea, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { LIMITS } from '../../../../../shared/constants';
import { isoToUs, toIsoDate } from '../../../../../shared/dates';
import { formatGeo } from '../../../../../shared/geo';
import { fullName } from '../../../../../shared/names';
import { useWorkingForemen } from '../../api/workingForemen';
import { GeoInput, UseMyLocation } from '../GeoInput';
import { orNull, text } from '../inputText';
import { ReadField } from '../ReadField';
import { fieldError } from '../ticketDraft';
import { Section, type SectionProps } from './Section';

/** Location and work: address, place, description, the WF crew, the due date and the work orders. */
export function LocationSection({ draft, update, errors, readOnly }: SectionProps) {
  const foremen = useWorkingForemen();
  const err = (path: string) => fieldError(errors, path);
  // The ticket's free texts: '' is kept as null; a refused save's message shows under the field.
  const textProps = (field: 'street_address' | 'description') => ({
    value: text(draft[field]),
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => update({ [field]: orNull(e.currentTarget.value) }),
    error: err(field),
  });

  if (readOnly) {
    return (
      <Section title="Location and work">
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
      </Section>
    );
  }

  return (
    <Section title="Location and work">
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
    </Section>
  );
}
