import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { timeZoneNames } from '../../../shared/company.schemas';
import { MSG } from '../../../shared/messages';
import { ApiError } from '../../api/client';
import { LoadState } from '../../components/LoadState';
import { useCompany, useSaveCompany } from './api/company';

/**
 * "Company" on the Settings page, for an Admin (decisions 046, 047): the company's time zone, where its
 * calendar days start and where the daily digest goes out at 06:00 (docs/product/records.md §3).
 */
export function CompanyCard() {
  const query = useCompany();
  const save = useSaveCompany();
  const [zone, setZone] = useState<string | null>(null);
  const zones = useMemo(() => timeZoneNames(), []);
  const stored = query.data?.time_zone ?? null;
  useEffect(() => setZone(stored), [stored]);

  return (
    <Paper withBorder p="lg" mt="md">
      <Stack>
        <Title order={2} size="h3">
          Company
        </Title>
        {!query.data ? (
          <LoadState query={query} loading="Loading the company" failed="The company could not be loaded" />
        ) : (
          <>
            <Text size="sm" c="dimmed">
              The daily digest of expiring permits, dig safe and overdue tickets is e-mailed at 06:00 in this time zone.
            </Text>
            {save.isSuccess && zone === stored && (
              <Alert color="green" role="status" p="xs">
                {MSG.companySaved}
              </Alert>
            )}
            {save.error && (
              <Alert color="red" role="alert" p="xs">
                {save.error instanceof ApiError && save.error.status < 500 ? save.error.message : MSG.accountSaveError}
              </Alert>
            )}
            <Group align="flex-end" wrap="wrap">
              <Select
                label="Time zone"
                data={zones}
                value={zone}
                onChange={setZone}
                searchable
                allowDeselect={false}
                nothingFoundMessage="No time zone of that name"
                style={{ flex: 1, minWidth: 220 }}
                comboboxProps={{ withinPortal: true }}
              />
              <Button onClick={() => zone && save.mutate({ time_zone: zone })} loading={save.isPending} disabled={!zone || zone === stored}>
                Save time zone
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}
