import { useState } from 'react';
import { Autocomplete, Button, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import type { FormErrors } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { useAccessTypes } from '../../api/accessTypes';
import { useSpecs } from '../../api/specs';
import { GeoInput } from '../GeoInput';
import { orNull, text } from '../inputText';
import type { DraftPole } from '../ticketDraft';
import { poleError, type PoleTextField } from './poleFields';

/** "Pole details": the chosen pole's own fields, with Save Pole when they changed (`onSavePole` given). */
export function PoleDetails({
  pole,
  basePole,
  errors,
  onPoleChange,
  onSavePole,
  savingPole,
}: {
  pole: DraftPole;
  basePole: DraftPole | null;
  errors: FormErrors;
  onPoleChange: (patch: Partial<DraftPole>) => void;
  onSavePole: (() => void) | null;
  savingPole: boolean;
}) {
  const accessTypes = useAccessTypes();
  const [specText, setSpecText] = useState<string | null>(null);
  const [debSpec] = useDebouncedValue(specText ?? '', 250);
  const specs = useSpecs(debSpec);
  const err = (field: keyof DraftPole) => poleError(errors, field);
  // The pole's free-text details: '' is sent as null.
  const textInput = (label: string, field: PoleTextField) => (
    <TextInput label={label} value={text(pole[field])} onChange={(e) => onPoleChange({ [field]: orNull(e.currentTarget.value) })} maxLength={255} error={err(field)} />
  );

  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={5}>Pole details</Title>
          {onSavePole && (
            <Button size="xs" onClick={onSavePole} loading={savingPole}>
              Save Pole
            </Button>
          )}
        </Group>
        {pole.id == null && (
          <Text size="sm" c="dimmed">
            {basePole ? 'The pole name, line, substation or circuit changed: select a pole or add it as a new pole.' : 'Select a pole or add a new one to see its details.'}
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          {textInput('Pole ID', 'pole_id')}
          {textInput('Line ID', 'line_id')}
          {textInput('Pole address', 'street_address')}
          <Select
            label="Access type"
            data={(accessTypes.data ?? []).map((a) => ({ value: String(a.id), label: a.title }))}
            value={pole.accessibility_id != null ? String(pole.accessibility_id) : null}
            onChange={(v) =>
              onPoleChange({
                accessibility_id: v ? Number(v) : null,
                accessibility_label: accessTypes.data?.find((a) => String(a.id) === v)?.title ?? null,
              })
            }
            clearable
            comboboxProps={{ withinPortal: true }}
            error={err('accessibility_id')}
          />
          <GeoInput label="Latitude (True-Y)" value={pole.geo_lat} onChange={(v) => onPoleChange({ geo_lat: v })} min={-90} max={90} error={err('geo_lat')} />
          <GeoInput label="Longitude (True-X)" value={pole.geo_lon} onChange={(v) => onPoleChange({ geo_lon: v })} min={-180} max={180} error={err('geo_lon')} />
          <Autocomplete
            label="Utility spec"
            value={specText ?? text(pole.utility_spec)}
            onChange={(v) => {
              setSpecText(v);
              onPoleChange({ utility_spec: orNull(v) });
            }}
            data={[...new Set((specs.data ?? []).map((s) => s.spec_number))]}
            maxLength={255}
            comboboxProps={{ withinPortal: true }}
            error={err('utility_spec')}
          />
          {textInput('Arc rating', 'arc_rating')}
          {textInput('Primary voltage', 'primary_voltage')}
          {textInput('Secondary voltage', 'secondary_voltage')}
          {textInput('Substation', 'sub_curcuit')}
          {textInput('Circuit', 'sap_curcuit')}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
