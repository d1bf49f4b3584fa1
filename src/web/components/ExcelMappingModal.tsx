import { useEffect, useRef, useState } from 'react';
import { useMediaQuery } from '@mantine/hooks';
import { Alert, Box, Button, Group, List, Loader, Modal, ScrollArea, Select, SimpleGrid, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import {
  availableColumns,
  defaultMappings,
  LIBRARY_TARGET_INFO,
  LIBRARY_TARGETS,
  missingMappings,
  overriddenText,
  overrideFor,
  startingMappings,
  TICKET_TARGET_INFO,
  TICKET_TARGETS,
  type JobOverrides,
  type LibraryTarget,
  type SheetChoice,
  type TicketTarget,
  type WorkbookColumns,
} from '../../shared/excel';
import { MSG } from '../../shared/messages';
import { ApiError } from '../api/client';
import { changedSides, hasNoLibrary, sheetOptions, sheetUsedText, shownNotes } from './workbookRead';

export type TicketMap = Record<TicketTarget, string | null>;
export type LibraryMap = Record<LibraryTarget, string | null>;

/** What the mapping was made from: the columns last read and the sheets the person picked. */
export interface MappingRead {
  columns: WorkbookColumns;
  /** The sheets picked on this step; absent ones were chosen by the server's rules. */
  sheets: SheetChoice;
  /** The workbook maps its tickets only (no usable Unit Library sheet; `libraryOptional`). */
  ticketsOnly: boolean;
}

/**
 * 'Excel Column Mapping' (docs/product/screens.md, imports.md §3): two tabs, Unit Tracking (ticket targets) and Unit
 * Library (library targets). Selectors start from the default names (case-insensitive), a column
 * chosen for one target leaves the other selectors' options, a target overridden on the job is
 * disabled and shows 'Overridden: {value}', and Save is enabled only by canSaveMapping.
 * Above them (docs/product/imports.md §5) it says what was read: the sheet and header row used for the tickets
 * and for the library with their row counts, and every value the reader had to interpret whose
 * column is mapped (or that concerns the whole file). Each tab lets the person pick another
 * sheet: the columns are read again (`readColumns`) and that side's selectors start again
 * from its defaults; a refused sheet leaves the mapping as it was and shows why.
 * Mount it when it opens: its selectors start from `initial`, else from the utility's saved
 * mapping (`columns.saved`, for the headers this workbook has) and then the default names
 * (docs/product/records.md); "Reset to defaults" puts back the default names.
 * Used by Create Job and by the job page's Upload Spreadsheet (decision 018), whose workbook may
 * have no Unit Library sheet (`libraryOptional`: its units must be in the utility's library).
 */
export function ExcelMappingModal({
  opened,
  columns: firstColumns,
  initial,
  overrides,
  onSave,
  onCancel,
  readColumns,
  libraryOptional = false,
}: {
  opened: boolean;
  /** The columns read for `initial.sheets` (or by the server's rules). */
  columns: WorkbookColumns;
  /** A mapping saved earlier for this workbook; otherwise the defaults. */
  initial: { ticketsMappings: TicketMap; libraryMappings: LibraryMap; sheets?: SheetChoice } | null;
  overrides: JobOverrides;
  onSave: (ticketsMappings: TicketMap, libraryMappings: LibraryMap, read: MappingRead) => void;
  onCancel: () => void;
  /** Reads the workbook's columns again for the sheets picked; without it no sheet can be picked. */
  readColumns?: (sheets: SheetChoice, signal: AbortSignal) => Promise<WorkbookColumns>;
  /** The workbook may have no Unit Library sheet: then only the ticket columns are mapped. */
  libraryOptional?: boolean;
}) {
  const [columns, setColumns] = useState<WorkbookColumns>(firstColumns);
  const [sheets, setSheets] = useState<SheetChoice>(() => initial?.sheets ?? {});
  const [tickets, setTickets] = useState<TicketMap>(() => (initial ?? startingMappings(firstColumns, firstColumns.saved)).ticketsMappings);
  const [library, setLibrary] = useState<LibraryMap>(() => (initial ?? startingMappings(firstColumns, firstColumns.saved)).libraryMappings);
  const [tab, setTab] = useState<string | null>('tickets');
  /** The sheet being read, while it is. */
  const [reading, setReading] = useState<string | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const reader = useRef<AbortController | null>(null);
  const phone = useMediaQuery('(max-width: 48em)');

  useEffect(() => () => reader.current?.abort(), []);

  const ticketsOnly = libraryOptional && hasNoLibrary(columns);
  // An overridden target takes its value from the job, never from a column.
  const effectiveTickets = Object.fromEntries(
    TICKET_TARGETS.map((t) => [t, overrideFor(t, overrides) !== null ? null : tickets[t]]),
  ) as TicketMap;
  const missing = missingMappings(effectiveTickets, library);
  // A workbook without a Unit Library sheet maps its tickets only.
  if (ticketsOnly) missing.library = [];
  const saveable = missing.tickets.length === 0 && missing.library.length === 0 && reading === null;
  const missingLabels = [
    ...missing.tickets.map((t) => `${TICKET_TARGET_INFO[t].label} (Unit Tracking)`),
    ...missing.library.map((t) => `${LIBRARY_TARGET_INFO[t].label} (Unit Library)`),
  ];
  const notes = shownNotes(columns, effectiveTickets, ticketsOnly ? null : library);
  const options = sheetOptions(columns.sheets);
  const canPick = readColumns !== undefined && options.length > 1;
  // Said while the selectors still start from the utility's last mapping (not after a reset).
  const [fromSaved, setFromSaved] = useState(() => !initial && Boolean(firstColumns.saved));

  /** The default names for the columns read, on both tabs: the saved mapping set aside. */
  function resetToDefaults() {
    const d = defaultMappings(columns);
    setTickets(d.ticketsMappings);
    setLibrary(d.libraryMappings);
    setFromSaved(false);
  }

  /** Reads the columns of another sheet; on success that side starts again from the saved mapping and the defaults. */
  function pickSheet(side: 'ticketsSheet' | 'librarySheet', name: string | null) {
    const used = side === 'ticketsSheet' ? columns.tickets?.name : columns.library?.name;
    if (!readColumns || !name || name === used) return;
    reader.current?.abort();
    const ac = new AbortController();
    reader.current = ac;
    const next: SheetChoice = { ...sheets, [side]: name };
    const before = columns;
    setReading(name);
    setReadError(null);
    readColumns(next, ac.signal)
      .then((after) => {
        if (ac.signal.aborted) return;
        if (!Array.isArray(after?.jobColumns) || !Array.isArray(after?.libraryColumns)) throw new Error(MSG.excelUnparsable);
        const changed = changedSides(before, after);
        const start = startingMappings(after, after.saved ?? before.saved);
        if (changed.tickets) setTickets(start.ticketsMappings);
        if (changed.library) setLibrary(start.libraryMappings);
        setColumns(after);
        setSheets(next);
      })
      .catch((err: unknown) => {
        if (ac.signal.aborted || (err as Error).name === 'AbortError') return;
        // The server answers 422 naming the sheet and the cause (no header row, too few columns).
        setReadError(err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 401 ? err.message : MSG.excelUnparsable);
      })
      .finally(() => {
        if (reader.current === ac) setReading(null);
      });
  }

  return (
    <Modal opened={opened} onClose={onCancel} title="Excel Column Mapping" size="lg" centered fullScreen={phone} scrollAreaComponent={ScrollArea.Autosize}>
      <Stack gap="sm">
        {columns.tickets && (
          <Box>
            <Text size="sm" fw={600}>
              What was read
            </Text>
            <Text size="sm">{sheetUsedText('Tickets', columns.tickets)}</Text>
            {!ticketsOnly && columns.library && <Text size="sm">{sheetUsedText('Unit Library', columns.library)}</Text>}
          </Box>
        )}
        {fromSaved && (
          <Text size="sm" role="status">
            Columns are chosen as in this utility's last import. Reset to defaults chooses them by their usual names.
          </Text>
        )}
        {reading !== null && (
          <Group gap="xs" role="status" wrap="nowrap">
            <Loader size="xs" />
            <Text size="sm">Reading the sheet “{reading}”…</Text>
          </Group>
        )}
        {readError && (
          <Alert color="red" role="alert" p="xs" title="That sheet could not be used" withCloseButton closeButtonLabel="Dismiss" onClose={() => setReadError(null)}>
            <Text size="sm">{readError}</Text>
          </Alert>
        )}
        {notes.length > 0 && (
          <Alert color="yellow" p="xs" role="status" title="Check these values before saving" icon={<IconAlertTriangle size={16} />}>
            <List size="sm" spacing={2}>
              {notes.map((n, i) => (
                <List.Item key={`${n.kind}-${n.sheet}-${n.column ?? ''}-${i}`}>{n.message}</List.Item>
              ))}
            </List>
          </Alert>
        )}
        <Tabs value={tab} onChange={setTab}>
          <Tabs.List grow>
            <Tabs.Tab value="tickets">Unit Tracking</Tabs.Tab>
            <Tabs.Tab value="library">Unit Library</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="tickets" pt="sm">
            {canPick && (
              <SheetSelect
                label="Tickets sheet"
                data={options}
                value={columns.tickets?.name ?? null}
                busy={reading !== null}
                onChange={(v) => pickSheet('ticketsSheet', v)}
              />
            )}
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
            {canPick && (
              <SheetSelect
                label="Unit Library sheet"
                data={options}
                value={ticketsOnly ? null : (columns.library?.name ?? null)}
                busy={reading !== null}
                onChange={(v) => pickSheet('librarySheet', v)}
              />
            )}
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
      </Stack>
      {!saveable && reading === null && (
        <Alert color="yellow" mt="md" p="xs">
          <Text size="sm">{MSG.excelMappingIncomplete(missingLabels.join(', '))}</Text>
        </Alert>
      )}
      <Group justify="space-between" mt="md">
        <Button variant="subtle" onClick={resetToDefaults} disabled={reading !== null}>
          Reset to defaults
        </Button>
        <Group gap="xs">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button disabled={!saveable} onClick={() => onSave(effectiveTickets, library, { columns, sheets, ticketsOnly })}>
            Save
          </Button>
        </Group>
      </Group>
    </Modal>
  );
}

/** The sheet a tab's columns come from; choosing another reads its columns. */
function SheetSelect({
  label,
  data,
  value,
  busy,
  onChange,
}: {
  label: string;
  data: { value: string; label: string }[];
  value: string | null;
  busy: boolean;
  onChange: (v: string | null) => void;
}) {
  return (
    <Select
      label={label}
      description="Choose another sheet to read its columns instead."
      placeholder="No sheet used"
      data={data}
      value={value}
      onChange={onChange}
      allowDeselect={false}
      disabled={busy}
      mb="sm"
      comboboxProps={{ withinPortal: true }}
    />
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
