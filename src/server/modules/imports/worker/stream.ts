import { formatImportErrors, type ImportError, type ParsedSheet, type TicketDraft, type UnitDraft } from '../../../../shared/excel';
import { AppError, unprocessable } from '../../../errors';
import { importErrors, startConversion, type Conversion, type SheetHeader } from '../convert';
import { READ_DEADLINE_MS, assertEnoughColumns, sniffFormat, withDeadline, xlsxEntries, type WorkbookLimits } from '../read/workbook';
import { streamXlsx } from '../read/xlsx';
import type { SheetRows } from '../read/header';
import { assertImportOk, workbookImportOf, type WorkbookImportRequest } from './convert-workbook';

/** The streamed import: a job save's drafts sent in batches while the worker still reads the file (decision 031). */

/**
 * Tickets per batch. A batch is cloned on the worker and deserialised on the server thread in
 * one piece: 250 tickets (~1,000 task rows) take a few milliseconds, and other requests are
 * served between two batches.
 */
const TICKETS_PER_MESSAGE = 250;

/**
 * Drafts as the worker sends them: the library with the first batch (and with a restart), then
 * tickets, a later part of a ticket already sent marked `continued` (mergeContinued).
 */
export interface DraftBatch {
  tickets: TicketDraft[];
  library?: UnitDraft[];
  /** Every ticket sent before this batch is void: the file is being read again from its start. */
  restart?: true;
}

/** The collected drafts in batches: the library with the first one, which is always sent. */
export function batchesOf(tickets: TicketDraft[], library: UnitDraft[], restart: boolean, send: (b: DraftBatch) => void) {
  for (let i = 0; i === 0 || i < tickets.length; i += TICKETS_PER_MESSAGE) {
    const batch: DraftBatch = { tickets: tickets.slice(i, i + TICKETS_PER_MESSAGE) };
    if (i === 0) batch.library = library;
    if (i === 0 && restart) batch.restart = true;
    send(batch);
  }
}

/**
 * A job save's import, sent in batches while the file is read (the server writes one batch
 * while the next is read): the library sheet first, then the tickets as their rows convert.
 * Throws what workbookImportOf throws, after the same checks in the same order: the read goes
 * to its end before a problem of the columns or the rows is answered (a limit reached further
 * down is the answer then), and no batch is sent once a row has a problem. When the streaming
 * reader cannot read the file after batches went out, the whole-workbook loader reads it and
 * its batches start with `restart`. `failAfterRows` makes the streaming reader fail there
 * (tests of that path).
 */
export async function streamWorkbookImport(
  buf: Buffer,
  req: WorkbookImportRequest,
  limits: WorkbookLimits,
  send: (b: DraftBatch) => void,
  failAfterRows?: number,
): Promise<void> {
  let sent = false;
  if (sniffFormat(buf) === 'xlsx') {
    const entries = await xlsxEntries(buf, limits);
    let libSheet: ParsedSheet | null = null;
    let conversion: Conversion | undefined;
    let library: { units: UnitDraft[]; errors: ImportError[] } | undefined;
    let refused: AppError | undefined;
    let rows = 0;
    /** Past the deadline the read may still run: nothing of it may be sent beside the fallback's. */
    let abandoned = false;
    const start = (sheet: SheetRows) => {
      const header: SheetHeader = { name: sheet.name, headerRow: sheet.headerRow, columns: sheet.columns, ...sheet.reading };
      try {
        assertEnoughColumns({ format: 'xlsx', tickets: { ...header, rows: [] }, library: libSheet });
        const c = startConversion(header, libSheet, req.ticketsMappings, req.libraryMappings, req.overrides);
        if ('errors' in c) throw unprocessable(formatImportErrors(c.errors));
        conversion = c;
        library = c.library(libSheet?.rows ?? []);
      } catch (err) {
        refused = err as AppError;
      }
    };
    const flush = () => {
      if (!conversion || !library || conversion.tickets.errors.length || library.errors.length) return;
      send(sent ? { tickets: conversion.tickets.takeChanges() } : { tickets: conversion.tickets.takeChanges(), library: library.units });
      sent = true;
    };
    try {
      const tickets = await withDeadline(
        streamXlsx(buf, limits, entries, {
          library: (sheet) => (libSheet = sheet),
          header: start,
          row: ({ row, cells }) => {
            if (abandoned) throw new Error('abandoned at the deadline');
            if (failAfterRows !== undefined && ++rows > failAfterRows) throw new Error('streaming reader failed (test)');
            conversion?.tickets.add(row, cells);
            if ((conversion?.tickets.changes ?? 0) >= TICKETS_PER_MESSAGE) flush();
          },
        }, req.sheets),
        READ_DEADLINE_MS,
      );
      if (!tickets.headerRow) start(tickets);
      if (refused) throw refused;
      const errors = importErrors(conversion!.tickets.errors, library!.errors);
      assertImportOk({ tickets: conversion!.tickets.all(), library: [], errors });
      flush();
      return;
    } catch (err) {
      if (err instanceof AppError) throw err;
      // Not readable as a stream: the whole-workbook loader's turn (workbookImportOf falls back to it).
      abandoned = true;
    }
  }
  const { tickets, library } = await workbookImportOf(buf, req, limits);
  batchesOf(tickets, library, sent, send);
}
