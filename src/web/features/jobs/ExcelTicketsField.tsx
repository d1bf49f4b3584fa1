import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconCheck, IconColumns } from '@tabler/icons-react';
import { TICKET_TARGETS, type JobOverrides, type TicketsFile, type WorkbookColumns } from '../../../shared/excel';
import { MSG } from '../../../shared/messages';
import { ApiError } from '../../api/client';
import { sheetParams } from '../../components/workbookRead';
import { UploadField } from '../../components/upload/UploadField';
import type { UploadedFile } from '../../components/upload/signedUpload';
import { getExcelColumns, useReadExcelColumns } from './api/excelColumns';
import { ExcelMappingModal, type LibraryMap, type MappingRead, type TicketMap } from '../../components/ExcelMappingModal';

/** Why the mapping is not attached yet, for the Create Job modal's Save hint. */
export type ExcelState = 'none' | 'busy' | 'unmapped' | 'mapped';

/**
 * The Excel ticket file of the Create Job modal (docs/product/screens.md §4, imports.md §3): upload the workbook, read its
 * columns (GET /jobs/excel/getColumns), map them in 'Excel Column Mapping' (which may read
 * another sheet's columns), and attach the saved mapping and the sheets picked to the draft as
 * `ticketsFile`. The messages of docs/product/imports.md §3: too few columns and parse errors
 * come from the server word for word; an upload failure shows 'File upload failed.'.
 */
export function ExcelTicketsField({
  value,
  onChange,
  overrides,
  utilityId,
  onStateChange,
}: {
  value: TicketsFile | null;
  onChange: (file: TicketsFile | null) => void;
  overrides: JobOverrides;
  /** The job's utility: its saved mapping is where the mapping starts (docs/product/records.md §4). */
  utilityId: number | null;
  onStateChange: (state: ExcelState) => void;
}) {
  const [file, setFile] = useState<UploadedFile | null>(null);
  const [uploading, setUploading] = useState(false);
  const [columns, setColumns] = useState<WorkbookColumns | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [mappingOpen, setMappingOpen] = useState(false);
  const reader = useRef<AbortController | null>(null);
  // The columns of the latest upload are being read (an older read is aborted, and its answer not shown).
  const { mutateAsync: readColumns, isPending: reading } = useReadExcelColumns();

  useEffect(() => () => reader.current?.abort(), []);

  const state: ExcelState = uploading || reading ? 'busy' : !file ? 'none' : value ? 'mapped' : 'unmapped';
  useEffect(() => onStateChange(state), [state, onStateChange]);

  async function uploaded(f: UploadedFile | null) {
    reader.current?.abort();
    setError(null);
    setColumns(null);
    onChange(null);
    setFile(f);
    if (!f) return;
    const ac = new AbortController();
    reader.current = ac;
    try {
      const cols = await readColumns({ url: f.url, signal: ac.signal, utilityId });
      if (!Array.isArray(cols?.jobColumns) || !Array.isArray(cols?.libraryColumns)) throw new Error(MSG.excelUnparsable);
      setColumns(cols);
      setMappingOpen(true);
    } catch (err) {
      if ((err as Error).name === 'AbortError') return;
      // The server answers 422 with the docs/product/imports.md §3 message (too few columns, unparsable, .xls).
      setError(err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 401 ? err.message : MSG.excelUnparsable);
      setFile(null);
    }
  }

  function saveMapping(ticketsMappings: TicketMap, libraryMappings: LibraryMap, read: MappingRead) {
    if (!file) return;
    // The columns of the sheets picked: Edit Mapping opens on them again.
    setColumns(read.columns);
    onChange({
      ticket_file_url: file.url,
      ticket_file_name: file.name,
      ticket_file_size: file.size,
      ticket_file_type: file.type,
      ticketsMappings,
      libraryMappings,
      // The sheets picked on the mapping step; absent: the server's rules choose them again.
      ...sheetParams(read.sheets),
    });
    setMappingOpen(false);
  }

  const mappedCount = value ? TICKET_TARGETS.filter((t) => value.ticketsMappings[t]).length : 0;

  return (
    <Stack gap="xs">
      <UploadField
        kind="excel"
        label="Excel Ticket File"
        description="The workbook of tickets (Unit Tracking and Unit Library sheets). Optional."
        value={file}
        onChange={(f) => void uploaded(f)}
        onBusyChange={setUploading}
        failureTitle={MSG.fileUploadFailed}
        dropText="Drag the Excel workbook here or click to choose it"
        error={error}
      />
      {reading && (
        <Group gap="xs" role="status">
          <Loader size="xs" />
          <Text size="sm">Reading the workbook's columns…</Text>
        </Group>
      )}
      {file && columns && !reading && (
        <Alert color={value ? 'green' : 'yellow'} p="xs" icon={value ? <IconCheck size={16} /> : <IconColumns size={16} />}>
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Text size="sm">
              {value
                ? `Columns mapped: ${mappedCount} ticket fields and the unit library.`
                : 'Map the columns of this workbook to import its tickets.'}
            </Text>
            <Button size="xs" variant="light" onClick={() => setMappingOpen(true)}>
              {value ? 'Edit Mapping' : 'Map Columns'}
            </Button>
          </Group>
        </Alert>
      )}
      {file && columns && mappingOpen && (
        <ExcelMappingModal
          opened
          columns={columns}
          initial={
            value
              ? {
                  ticketsMappings: value.ticketsMappings as TicketMap,
                  libraryMappings: value.libraryMappings as LibraryMap,
                  sheets: { ticketsSheet: value.ticketsSheet, librarySheet: value.librarySheet },
                }
              : null
          }
          overrides={overrides}
          readColumns={(sheets, signal) => getExcelColumns(file.url, { signal, sheets, utilityId })}
          onSave={saveMapping}
          onCancel={() => setMappingOpen(false)}
        />
      )}
    </Stack>
  );
}
