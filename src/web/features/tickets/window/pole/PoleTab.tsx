import { Alert, Button, Stack, Text } from '@mantine/core';
import type { FormErrors } from '@mantine/form';
import { IconGitMerge } from '@tabler/icons-react';
import { MSG } from '../../../../../shared/messages';
import type { Pole } from '../../../../../shared/tickets.schemas';
import { useUtilities } from '../../../../api/utilities';
import type { DraftPole } from '../ticketDraft';
import { FindPole } from './FindPole';
import { PoleDetails } from './PoleDetails';
import { PoleReadOnly } from './PoleReadOnly';

/**
 * docs/product/screens.md §6, rules.md §2.2 Pole tab: search the company's poles by utility, pole and line; pick one; or add
 * what was typed as a new pole (FindPole). The chosen pole's own fields follow, with 'Save Pole'
 * when they changed (PoleDetails). Typing a pole name, line, substation or circuit unselects the
 * pole (the parent clears its id), so the ticket is never silently re-pointed at a different
 * pole. `errors`: a refused save's messages, by path of the draft ('pole.geo_lat').
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
  const utilityList = utilities.data ?? [];

  // Whoever may not edit poles (roles 4 to 6) reads them as text.
  if (!canWrite) {
    return <PoleReadOnly pole={pole} utilityName={utilityList.find((u) => u.id === pole.utility_id_owning_pole)?.code ?? ''} />;
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
      <FindPole
        pole={pole}
        utilities={utilityList}
        errors={errors}
        onPoleChange={onPoleChange}
        onSelect={onSelect}
        onAddPole={onAddPole}
        addingPole={addingPole}
        addPoleError={addPoleError}
      />
      <PoleDetails pole={pole} basePole={basePole} errors={errors} onPoleChange={onPoleChange} onSavePole={onSavePole} savingPole={savingPole} />
    </Stack>
  );
}
