import { useState } from 'react';
import { useMediaQuery } from '@mantine/hooks';
import { Alert, Button, Group, Modal, ScrollArea, Select, SimpleGrid, Tabs, Text, TextInput } from '@mantine/core';
import {
  availableColumns,
  defaultMappings,
  LIBRARY_TARGET_INFO,
  LIBRARY_TARGETS,
  missingMappings,
  overriddenText,
  overrideFor,
  TICKET_TARGET_INFO,
  TICKET_TARGETS,
  type JobOverrides,
  type LibraryTarget,
  type TicketTarget,
  type WorkbookColumns,
} from '../../shared/excel';
import { MSG } from '../../shared/messages';

export type TicketMap = Record<TicketTarget, string | null>;
export type LibraryMap = Record<LibraryTarget, string | null>;

/**
 * 'Excel Column Mapping' (SPEC §2, §4, §5): two tabs, Unit Tracking (ticket targets) and Unit
 * Library (library targets). Selectors start from the default names (case-insensitive), a column
 * chosen for one target leaves the other selectors' options, a target overridden on the job is
 * disabled and shows 'Overridden: {value}', and Save is enabled only by canSaveMapping.
 * Mount it when it opens: its selectors start from `initial` (or the defaults) each time.
 * Used by Create Job and by the job page's Upload Spreadsheet (decision 018), whose workbook may
 * have no Unit Library sheet (`ticketsOnly`: its units must be in the utility's library).
 */
export function ExcelMappingModal({
  opened,
  columns,
  initial,
  overrides,
  onSave,
  onCancel,
  ticketsOnly = false,
}: {
  opened: boolean;
  columns: WorkbookColumns;
  /** A mapping saved earlier for this workbook; otherwise the defaults. */
  initial: { ticketsMappings: TicketMap; libraryMappings: LibraryMap } | null;
  overrides: JobOverrides;
  onSave: (ticketsMappings: TicketMap, libraryMappings: LibraryMap) => void;
  onCancel: () => void;
  /** The workbook has no Unit Library sheet: only the ticket columns are mapped. */
  ticketsOnly?: boolean;
}) {
  const [tickets, setTickets] = useState<TicketMap>(() => (initial ?? defaultMappings(columns)).ticketsMappings);
  const [library, setLibrary] = useState<LibraryMap>(() => (initial ?? defaultMappings(columns)).libraryMappings);
  const [tab, setTab] = useState<string | null>('tickets');
  const phone = useMediaQuery('(max-width: 48em)');


  // An overridden target takes its value from the job, never from a column.
  const effectiveTickets = Object.fromEntries(
    TICKET_TARGETS.map((t) => [t, overrideFor(t, overrides) !== null ? null : tickets[t]]),
  ) as TicketMap;
  const missing = missingMappings(effectiveTickets, library);
  // A workbook without a Unit Library sheet maps its tickets only.
  if (ticketsOnly) missing.library = [];
  const saveable = missing.tickets.length === 0 && missing.library.length === 0;
  const missingLabels = [
    ...missing.tickets.map((t) => `${TICKET_TARGET_INFO[t].label} (Unit Tracking)`),
    ...missing.library.map((t) => `${LIBRARY_TARGET_INFO[t].label} (Unit Library)`),
  ];

  return (
    <Modal opened={opened} onClose={onCancel} title="Excel Column Mapping" size="lg" centered fullScreen={phone} scrollAreaComponent={ScrollArea.Autosize}>
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List grow>
          <Tabs.Tab value="tickets">Unit Tracking</Tabs.Tab>
          <Tabs.Tab value="library">Unit Library</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="tickets" pt="sm">
          <Text size="sm" c="dimmed" mb="xs">
            Choose the column of the Unit Tracking sheet that holds each ticket field.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {TICKET_TARGETS.map((t) => {
              const info = TICKET_TARGET_INFO[t];
              const overridden = overrideFor(t, overrides);
              if (overridden !== null) {
                return <TextInput key={t} label={info.label} value={overriddenText(overridden)} disabled readOnly />;
              }
              return (
                <ColumnSelect
                  key={t}
                  info={info}
                  data={availableColumns(columns.jobColumns, effectiveTickets, t)}
                  value={tickets[t]}
                  onChange={(v) => setTickets((m) => ({ ...m, [t]: v }))}
                />
              );
            })}
          </SimpleGrid>
        </Tabs.Panel>
        <Tabs.Panel value="library" pt="sm">
          {ticketsOnly ? (
            <Text size="sm">This workbook has no Unit Library sheet: its unit codes must already be in the utility's unit library.</Text>
          ) : (
            <>
              <Text size="sm" c="dimmed" mb="xs">
                Choose the column of the Unit Library sheet that holds each unit field.
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                {LIBRARY_TARGETS.map((t) => (
                  <ColumnSelect
                    key={t}
                    info={LIBRARY_TARGET_INFO[t]}
                    data={availableColumns(columns.libraryColumns, library, t)}
                    value={library[t]}
                    onChange={(v) => setLibrary((m) => ({ ...m, [t]: v }))}
                  />
                ))}
              </SimpleGrid>
            </>
          )}
        </Tabs.Panel>
      </Tabs>
      {!saveable && (
        <Alert color="yellow" mt="md" p="xs">
          <Text size="sm">{MSG.excelMappingIncomplete(missingLabels.join(', '))}</Text>
        </Alert>
      )}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button disabled={!saveable} onClick={() => onSave(effectiveTickets, library)}>
          Save
        </Button>
      </Group>
    </Modal>
  );
}

/** One target's column picker: the same control on both sheets. */
function ColumnSelect({
  info,
  data,
  value,
  onChange,
}: {
  info: { label: string; markedRequired: boolean };
  data: string[];
  value: string | null | undefined;
  onChange: (v: string | null) => void;
}) {
  return (
    <Select
      label={info.label}
      required={info.markedRequired}
      placeholder="Select..."
      data={data}
      value={value ?? null}
      onChange={onChange}
      clearable
      searchable
      comboboxProps={{ withinPortal: true }}
    />
  );
}
