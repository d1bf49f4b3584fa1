import { useState } from 'react';
import {
  Alert,
  Autocomplete,
  Button,
  Group,
  Loader,
  Paper,
  ScrollArea,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCheck, IconGitMerge, IconPlus, IconSearch } from '@tabler/icons-react';
import { MSG } from '../../../../shared/messages';
import { formatGeo } from '../../../../shared/geo';
import type { Pole } from '../../../../shared/tickets.schemas';
import { useUtilities } from '../../../api/utilities';
import { useAccessTypes } from '../api/accessTypes';
import { usePoleSearch } from '../api/poleSearch';
import { useSpecs } from '../api/specs';
import { GeoInput } from './GeoInput';
import { ReadField } from './ReadField';
import type { FormErrors } from '@mantine/form';
import { fieldError, type DraftPole } from './ticketDraft';

const text = (v: string | null | undefined) => v ?? '';
const orNull = (v: string) => (v.trim() === '' ? null : v);
type PoleTextField = 'pole_id' | 'line_id' | 'street_address' | 'arc_rating' | 'primary_voltage' | 'secondary_voltage' | 'sub_curcuit' | 'sap_curcuit';

/**
 * SPEC §2/§4 Pole tab: search the company's poles by utility, pole and line; pick one; or add
 * what was typed as a new pole. The chosen pole's own fields follow, with 'Save Pole' when they
 * changed. Typing a pole name, line, substation or circuit unselects the pole (the parent clears
 * its id), so the ticket is never silently re-pointed at a different pole. `errors`: a refused
 * save's messages, by path of the draft ('pole.geo_lat').
 */
export function PoleTab({
  pole,
  basePole,
  canWrite,
  errors,
  onPoleChange,
  onSelect,
  onAddPole,
  addingPole,
  addPoleError,
  onSavePole,
  savingPole,
  needsMerge,
  onMerge,
  merging,
  isNew,
}: {
  pole: DraftPole;
  basePole: DraftPole | null;
  canWrite: boolean;
  errors: FormErrors;
  onPoleChange: (patch: Partial<DraftPole>) => void;
  onSelect: (p: Pole) => void;
  onAddPole: () => void;
  addingPole: boolean;
  addPoleError: string | null;
  onSavePole: (() => void) | null;
  savingPole: boolean;
  needsMerge: boolean;
  onMerge: () => void;
  merging: boolean;
  isNew: boolean;
}) {
  const utilities = useUtilities();
  const accessTypes = useAccessTypes();
  const [specText, setSpecText] = useState<string | null>(null);
  const [debSpec] = useDebouncedValue(specText ?? '', 250);
  const specs = useSpecs(debSpec);

  const search = { utility: pole.utility_id_owning_pole, pole: pole.pole_name, line: pole.line_name };
  const [debSearch] = useDebouncedValue(search, 300);
  const hasText = debSearch.pole.trim() !== '' || debSearch.line.trim() !== '';
  const results = usePoleSearch(debSearch, hasText && canWrite);
  const ro = !canWrite;

  const utilityName = (id: number | null) => utilities.data?.find((u) => u.id === id)?.code ?? '';
  const canAdd = pole.pole_name.trim() !== '' && pole.line_name.trim() !== '';
  const err = (field: keyof DraftPole) => fieldError(errors, `pole.${field}`);
  // What the search looks for: typed as it is (the names are never null).
  const searchInput = (label: string, field: 'pole_name' | 'line_name') => (
    <TextInput
      label={label}
      value={pole[field]}
      onChange={(e) => onPoleChange({ [field]: e.currentTarget.value })}
      leftSection={<IconSearch size={14} />}
      maxLength={255}
      autoComplete="off"
      error={err(field)}
    />
  );
  // The pole's free-text details: '' is sent as null.
  const textInput = (label: string, field: PoleTextField) => (
    <TextInput label={label} value={text(pole[field])} onChange={(e) => onPoleChange({ [field]: orNull(e.currentTarget.value) })} maxLength={255} error={err(field)} />
  );

  // Whoever may not edit poles (roles 4 to 6) reads them as text.
  if (ro) {
    return (
      <Paper withBorder p="sm">
        <Stack gap="xs">
          <Title order={5}>Pole</Title>
          <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs">
            <ReadField label="Utility">{pole.utility_name ?? utilityName(pole.utility_id_owning_pole)}</ReadField>
            <ReadField label="Pole">{pole.pole_name}</ReadField>
            <ReadField label="Line">{pole.line_name}</ReadField>
            <ReadField label="Pole ID">{pole.pole_id}</ReadField>
            <ReadField label="Line ID">{pole.line_id}</ReadField>
            <ReadField label="Pole address">{pole.street_address}</ReadField>
            <ReadField label="Access type">{pole.accessibility_label}</ReadField>
            <ReadField label="Latitude (True-Y)">{formatGeo(pole.geo_lat)}</ReadField>
            <ReadField label="Longitude (True-X)">{formatGeo(pole.geo_lon)}</ReadField>
            <ReadField label="Utility spec">{pole.utility_spec}</ReadField>
            <ReadField label="Arc rating">{pole.arc_rating}</ReadField>
            <ReadField label="Primary voltage">{pole.primary_voltage}</ReadField>
            <ReadField label="Secondary voltage">{pole.secondary_voltage}</ReadField>
            <ReadField label="Substation">{pole.sub_curcuit}</ReadField>
            <ReadField label="Circuit">{pole.sap_curcuit}</ReadField>
          </SimpleGrid>
        </Stack>
      </Paper>
    );
  }

  return (
    <Stack gap="md">
      {needsMerge && (
        <Alert color="orange" title="Pole already on this job" role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{MSG.needsMerge}</Text>
            <Button color="orange" leftSection={<IconGitMerge size={16} />} onClick={onMerge} loading={merging}>
              {isNew ? 'Open the Existing Ticket' : 'Merge Tickets'}
            </Button>
          </Stack>
        </Alert>
      )}

      <Paper withBorder p="sm">
        <Stack gap="xs">
          <Title order={5}>Find a pole</Title>
          <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
            <Select
              label="Utility"
              placeholder="All"
              data={(utilities.data ?? []).map((u) => ({ value: String(u.id), label: u.code }))}
              value={pole.utility_id_owning_pole != null ? String(pole.utility_id_owning_pole) : null}
              onChange={(v) => onPoleChange({ utility_id_owning_pole: v ? Number(v) : null, utility_name: v ? utilityName(Number(v)) : null })}
              clearable
              comboboxProps={{ withinPortal: true }}
              error={err('utility_id_owning_pole')}
            />
            {searchInput('Pole', 'pole_name')}
            {searchInput('Line', 'line_name')}
          </SimpleGrid>

          {hasText && (
            <ScrollArea.Autosize mah={220} type="auto">
              {results.isLoading ? (
                <Group gap="xs">
                  <Loader size="xs" /> <Text size="sm">Searching poles…</Text>
                </Group>
              ) : (results.data ?? []).length === 0 ? (
                <Text size="sm" c="dimmed">
                  No existing pole matches. Add it as a new pole below.
                </Text>
              ) : (
                <Table highlightOnHover aria-label="Matching poles" fz="sm">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Pole</Table.Th>
                      <Table.Th>Line</Table.Th>
                      <Table.Th>Utility</Table.Th>
                      <Table.Th visibleFrom="sm">Address</Table.Th>
                      <Table.Th />
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {(results.data ?? []).map((p) => {
                      const chosen = pole.id === p.id;
                      return (
                        <Table.Tr key={p.id} bg={chosen ? 'var(--mantine-color-blue-light)' : undefined}>
                          <Table.Td>{p.pole_name}</Table.Td>
                          <Table.Td>{p.line_name}</Table.Td>
                          <Table.Td>{p.utility_name ?? ''}</Table.Td>
                          <Table.Td visibleFrom="sm">{p.street_address ?? ''}</Table.Td>
                          <Table.Td>
                            <Button
                              size="compact-sm"
                              variant={chosen ? 'filled' : 'light'}
                              leftSection={chosen ? <IconCheck size={14} /> : undefined}
                              onClick={() => onSelect(p)}
                              aria-label={`${chosen ? 'Selected' : 'Select'} pole ${p.pole_name} line ${p.line_name}`}
                            >
                              {chosen ? 'Selected' : 'Select'}
                            </Button>
                          </Table.Td>
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              )}
            </ScrollArea.Autosize>
          )}

          <Group gap="xs">
            <Button variant="light" leftSection={<IconPlus size={16} />} disabled={!canAdd || pole.id != null} onClick={onAddPole} loading={addingPole}>
              Add as a New Pole
            </Button>
            {pole.id != null && (
              <Group gap={4} wrap="nowrap">
                <IconCheck size={16} color="var(--mantine-color-green-8)" aria-hidden />
                <Text size="sm">
                  Pole {pole.pole_name} on line {pole.line_name} is selected.
                </Text>
              </Group>
            )}
          </Group>
          {addPoleError && (
            <Alert color="red" role="alert" p="xs">
              {addPoleError}
            </Alert>
          )}
        </Stack>
      </Paper>

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
    </Stack>
  );
}
