import { Paper, SimpleGrid, Stack, Title } from '@mantine/core';
import { formatGeo } from '../../../../../shared/geo';
import { ReadField } from '../ReadField';
import type { DraftPole } from '../ticketDraft';

/** The pole as text, for whoever may not edit poles (roles 4 to 6). */
export function PoleReadOnly({ pole, utilityName }: { pole: DraftPole; utilityName: string }) {
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Title order={5}>Pole</Title>
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs">
          <ReadField label="Utility">{pole.utility_name ?? utilityName}</ReadField>
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
