import { Group, SimpleGrid, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import type { FormErrors } from '@mantine/form';
import { LIMITS } from '../../../../../shared/constants';
import { isoToUs, toIsoDate } from '../../../../../shared/dates';
import { RecordExpiry } from '../../../../components/DigSafe';
import { orNull, text } from '../inputText';
import { ReadField } from '../ReadField';
import { fieldError } from '../ticketDraft';

/** A permit's or the dig-safe record's number and validity (docs/product/records.md §2): the values and where a save's errors show. */
export interface RecordValues {
  number: string | null;
  valid_from: string | null;
  expires_on: string | null;
}

/**
 * Number, "Valid from" and "Expires on" of one record, with its expiry badge. `label` starts
 * every control's name ("Dig safe", "Permit 2"); `paths` are the draft's error paths of its fields.
 */
export function RecordFields({
  label,
  values,
  onChange,
  errors,
  paths,
  readOnly,
  today,
}: {
  label: string;
  values: RecordValues;
  onChange: (patch: Partial<RecordValues>) => void;
  errors: FormErrors;
  paths: Record<keyof RecordValues, string>;
  readOnly: boolean;
  today: string;
}) {
  const badge = <RecordExpiry expiresOn={values.expires_on} today={today} what={label} />;
  if (readOnly) {
    return (
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
        <ReadField label={`${label} number`}>{values.number}</ReadField>
        <ReadField label={`${label} valid from`}>{isoToUs(values.valid_from) || null}</ReadField>
        <ReadField label={`${label} expires on`}>
          <Group gap={6} component="span">
            {isoToUs(values.expires_on) || '--'}
            {badge}
          </Group>
        </ReadField>
      </SimpleGrid>
    );
  }
  const date = (field: 'valid_from' | 'expires_on', name: string) => (
    <DatePickerInput
      label={`${label} ${name}`}
      valueFormat="MM/DD/YYYY"
      placeholder="MM/DD/YYYY"
      leftSection={<IconCalendar size={16} aria-hidden />}
      maxLevel="decade"
      minDate="2000-01-01"
      value={values[field]}
      onChange={(v) => onChange({ [field]: v ? toIsoDate(v) : null })}
      clearable
      popoverProps={{ withinPortal: true }}
      error={fieldError(errors, paths[field])}
    />
  );
  return (
    <>
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
        <TextInput
          label={`${label} number`}
          value={text(values.number)}
          maxLength={LIMITS.shortTextMax}
          onChange={(e) => onChange({ number: orNull(e.currentTarget.value) })}
          error={fieldError(errors, paths.number)}
        />
        {date('valid_from', 'valid from')}
        {date('expires_on', 'expires on')}
      </SimpleGrid>
      {badge}
    </>
  );
}
