import { useEffect, useState } from 'react';
import { Alert, Button, Group, NumberInput, Paper, Stack, Text, Title } from '@mantine/core';
import { EVIDENCE_LIMITS } from '../../../shared/evidence';
import { MSG } from '../../../shared/messages';
import { ApiError } from '../../api/client';
import { LoadState } from '../../components/LoadState';
import { useCompany, useSaveCompany } from './api/company';

/**
 * "Evidence" on the Settings page, for an Admin (docs/product/records.md §7, §8; decision 047): how far from
 * its pole a photo may be taken, and how many such photos make a Complete ticket evidenced.
 */
export function EvidenceCard() {
  const query = useCompany();
  const save = useSaveCompany();
  const [radius, setRadius] = useState<number | string>('');
  const [required, setRequired] = useState<number | string>('');
  const stored = query.data;
  useEffect(() => {
    if (!stored) return;
    setRadius(stored.evidence_radius_m);
    setRequired(stored.evidence_photos_required);
  }, [stored]);
  const changed = stored != null && (radius !== stored.evidence_radius_m || required !== stored.evidence_photos_required);

  return (
    <Paper withBorder p="lg" mt="md">
      <Stack>
        <Title order={2} size="h3">
          Evidence
        </Title>
        {!stored ? (
          <LoadState query={query} loading="Loading the company" failed="The company could not be loaded" />
        ) : (
          <>
            <Text size="sm">
              A photo taken farther than the radius from its pole is flagged and does not count. A completed ticket is evidenced with at least the photos
              required (0 turns the rule off). A new radius rechecks every photo.
            </Text>
            {save.isSuccess && !changed && (
              <Alert color="green" role="status" p="xs">
                {MSG.accountSaved}
              </Alert>
            )}
            {save.error && (
              <Alert color="red" role="alert" p="xs">
                {save.error instanceof ApiError && save.error.status < 500 ? save.error.message : MSG.accountSaveError}
              </Alert>
            )}
            <Group align="flex-end" wrap="wrap">
              <NumberInput
                label="Photo radius (metres)"
                value={radius}
                onChange={setRadius}
                min={EVIDENCE_LIMITS.radiusMin}
                max={EVIDENCE_LIMITS.radiusMax}
                allowDecimal={false}
                w={200}
              />
              <NumberInput
                label="Photos required per ticket"
                value={required}
                onChange={setRequired}
                min={0}
                max={EVIDENCE_LIMITS.photosMax}
                allowDecimal={false}
                w={200}
              />
              <Button
                onClick={() => save.mutate({ evidence_radius_m: Number(radius), evidence_photos_required: Number(required) })}
                loading={save.isPending}
                disabled={!changed || radius === '' || required === ''}
              >
                Save evidence settings
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}
