import { Alert, Button, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import type { FormErrors } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCheck, IconPlus, IconSearch } from '@tabler/icons-react';
import type { Pole } from '../../../../../shared/tickets.schemas';
import type { Utility } from '../../../../../shared/jobs.schemas';
import { usePoleSearch } from '../../api/poleSearch';
import type { DraftPole } from '../ticketDraft';
import { PoleMatches } from './PoleMatches';
import { poleError } from './poleFields';

/**
 * "Find a pole": search the company's poles by utility, pole and line; pick one; or add what was
 * typed as a new pole. Typing a pole name or line unselects the chosen pole (the parent clears
 * its id), so the ticket is never silently re-pointed at a different pole.
 */
export function FindPole({
  pole,
  utilities,
  errors,
  onPoleChange,
  onSelect,
  onAddPole,
  addingPole,
  addPoleError,
}: {
  pole: DraftPole;
  utilities: Utility[];
  errors: FormErrors;
  onPoleChange: (patch: Partial<DraftPole>) => void;
  onSelect: (p: Pole) => void;
  onAddPole: () => void;
  addingPole: boolean;
  addPoleError: string | null;
}) {
  const search = { utility: pole.utility_id_owning_pole, pole: pole.pole_name, line: pole.line_name };
  const [debSearch] = useDebouncedValue(search, 300);
  const hasText = debSearch.pole.trim() !== '' || debSearch.line.trim() !== '';
  const results = usePoleSearch(debSearch, hasText);
  const canAdd = pole.pole_name.trim() !== '' && pole.line_name.trim() !== '';
  const utilityName = (id: number | null) => utilities.find((u) => u.id === id)?.code ?? '';
  // What the search looks for: typed as it is (the names are never null).
  const searchInput = (label: string, field: 'pole_name' | 'line_name') => (
    <TextInput
      label={label}
      value={pole[field]}
      onChange={(e) => onPoleChange({ [field]: e.currentTarget.value })}
      leftSection={<IconSearch size={14} />}
      maxLength={255}
      autoComplete="off"
      error={poleError(errors, field)}
    />
  );

  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Title order={5}>Find a pole</Title>
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
          <Select
            label="Utility"
            placeholder="All"
            data={utilities.map((u) => ({ value: String(u.id), label: u.code }))}
            value={pole.utility_id_owning_pole != null ? String(pole.utility_id_owning_pole) : null}
            onChange={(v) => onPoleChange({ utility_id_owning_pole: v ? Number(v) : null, utility_name: v ? utilityName(Number(v)) : null })}
            clearable
            comboboxProps={{ withinPortal: true }}
            error={poleError(errors, 'utility_id_owning_pole')}
          />
          {searchInput('Pole', 'pole_name')}
          {searchInput('Line', 'line_name')}
        </SimpleGrid>

        {hasText && <PoleMatches loading={results.isLoading} poles={results.data ?? []} chosenId={pole.id} onSelect={onSelect} />}

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
  );
}
