import type { JobOverrides, SheetChoice, TicketDraft, UnitDraft, WorkbookColumns, WorkbookImport } from '../../../../shared/excel';
import { mergeContinued } from '../ticket-rows';
import { startOffThread, type Done, type ImportOptions, type Job } from './pool';
import type { WorkerTask } from './protocol';
import type { DraftBatch } from './stream';
import type { SheetUploadRequest, WorkbookDrafts, WorkbookImportRequest } from './convert-workbook';

/**
 * Workbooks read in a worker thread: the job save's `job.ticketsFile`, getColumns, and
 * the spreadsheet upload of a job (POST /tickets/xls-upload), from bytes to drafts. Reading a
 * 10,000-row .xlsx keeps exceljs busy for a long while; on the server's own thread that time is cut into many slices, and requests that arrive
 * meanwhile (GET /health, other users) wait behind them. In a worker the server thread only
 * receives the finished drafts, in batches small enough to deserialise without a noticeable pause.
 */

/** A job run to its end, its batches folded into whole drafts (a restart starts them over). */
async function collectOffThread(buf: Buffer, task: WorkerTask, options: ImportOptions = {}): Promise<Done & { tickets: TicketDraft[]; library: UnitDraft[] }> {
  let tickets: TicketDraft[] = [];
  let library: UnitDraft[] = [];
  const byKey = new Map<string, TicketDraft>();
  const done = await startOffThread(buf, task, options, (batch, take) => {
    if (batch.restart) {
      tickets = [];
      byKey.clear();
    }
    if (batch.library) library = batch.library;
    for (const t of batch.tickets) {
      const continues = t.continued ? byKey.get(t.key) : undefined;
      if (t.continued && !continues) throw new Error(`a continuation of ticket '${t.key}', which was never sent`);
      if (continues) mergeContinued(continues, t);
      else {
        tickets.push(t);
        byKey.set(t.key, t);
      }
    }
    take();
  });
  return { ...done, tickets, library };
}

/**
 * A job's batches as they come, for a consumer that works on each before it takes the next
 * (the staged import writes it). The job starts at once. When the consumer stops early, the
 * worker runs on to its end unthrottled and what it still sends is dropped. The job's error
 * (a 422 naming rows, a limit) is thrown after the batches that came before it.
 */
class BatchStream implements AsyncIterable<DraftBatch> {
  private readonly waiting: { batch: DraftBatch; take: () => void }[] = [];
  private end?: { error?: unknown };
  private wake?: () => void;
  private stopped = false;

  constructor(start: (onBatch: Job['onBatch']) => Promise<Done>) {
    start((batch, take) => {
      if (this.stopped) return take();
      this.waiting.push({ batch, take });
      this.wake?.();
    }).then(
      () => this.finish({}),
      (error: unknown) => this.finish({ error }),
    );
  }

  private finish(end: { error?: unknown }) {
    this.end = end;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<DraftBatch> {
    try {
      for (;;) {
        const next = this.waiting.shift();
        if (next) {
          yield next.batch;
          next.take();
        } else if (this.end) {
          if (this.end.error !== undefined) throw this.end.error;
          return;
        } else {
          await new Promise<void>((resolve) => (this.wake = resolve));
          this.wake = undefined;
        }
      }
    } finally {
      this.stopped = true;
      for (const w of this.waiting.splice(0)) w.take();
    }
  }
}

/** Only the four override fields travel: the caller may pass the whole job (with newTickets). */
const overridesOf = (o: JobOverrides | null | undefined): JobOverrides | null =>
  o
    ? {
        ehasp_override: o.ehasp_override,
        arc_rating_override: o.arc_rating_override,
        primary_voltage_override: o.primary_voltage_override,
        secondary_voltage_override: o.secondary_voltage_override,
      }
    : null;

/** `workbookImportOf` in the worker: the same drafts, the same AppErrors. */
export async function workbookImportOffThread(buf: Buffer, req: WorkbookImportRequest, options?: ImportOptions): Promise<WorkbookDrafts> {
  const { tickets, library } = await collectOffThread(buf, { kind: 'import', req: { ...req, overrides: overridesOf(req.overrides) } }, options);
  return { tickets, library };
}

/**
 * The same drafts in batches as the worker converts them (streamWorkbookImport), for the staged
 * import of a new job. Reading starts now; a second workbook of the same user throws 429 here.
 */
export function workbookImportBatches(buf: Buffer, req: WorkbookImportRequest, options: ImportOptions = {}): AsyncIterable<DraftBatch> {
  const task: WorkerTask = { kind: 'import', req: { ...req, overrides: overridesOf(req.overrides) } };
  return new BatchStream((onBatch) => startOffThread(buf, task, options, onBatch));
}

/** `sheetUploadOf` in the worker: the same result, the same AppErrors. */
export async function sheetUploadOffThread(buf: Buffer, req: SheetUploadRequest, options?: ImportOptions): Promise<WorkbookImport> {
  const done = await collectOffThread(buf, { kind: 'sheet', req: { ...req, overrides: overridesOf(req.overrides) } }, options);
  return { tickets: done.tickets, library: done.library, errors: done.errors ?? [] };
}

/** getColumns' header lists (422 when there are too few), read in the worker. */
export async function workbookColumnsOffThread(buf: Buffer, options?: ImportOptions, sheets?: SheetChoice): Promise<WorkbookColumns> {
  return (await collectOffThread(buf, { kind: 'columns', sheets }, options)).columns!;
}

/** The header lists of a spreadsheet upload (422 with too few ticket columns; the library sheet is optional). */
export async function sheetColumnsOffThread(buf: Buffer, options?: ImportOptions, sheets?: SheetChoice): Promise<WorkbookColumns> {
  return (await collectOffThread(buf, { kind: 'columns', sheet: true, sheets }, options)).columns!;
}
