import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultMappings, type TicketDraft, type UnitDraft } from '../../../../shared/excel';
import { MSG } from '../../../../shared/messages';
import { AppError } from '../../../errors';
import { generateTicketWorkbook } from '../../../test/generate-workbook';
import { mergeContinued } from '../ticket-rows';
import { DEFAULT_WORKBOOK_LIMITS, columnsOf, parseWorkbook } from '../read/workbook';
import { sheetUploadOf, workbookImportOf, type WorkbookImportRequest } from './convert-workbook';
import { sheetUploadOffThread, workbookColumnsOffThread, workbookImportBatches, workbookImportOffThread } from './off-thread';
import { WORKER_NICE } from './protocol';
import { streamWorkbookImport, type DraftBatch } from './stream';
import { fixture } from '../../../test/files';

/** The default mapping of a workbook's own headers, as the job form would send it. */
async function requestFor(buf: Buffer, overrides: WorkbookImportRequest['overrides'] = null): Promise<WorkbookImportRequest> {
  const m = defaultMappings(columnsOf(await parseWorkbook(buf)));
  return { ticketsMappings: m.ticketsMappings, libraryMappings: m.libraryMappings, overrides };
}

/** Both ways must fail alike: the same status and message, as an AppError. */
async function failures(buf: Buffer, req: WorkbookImportRequest) {
  const inThread = await workbookImportOf(buf, req).catch((e: unknown) => e);
  const offThread = await workbookImportOffThread(buf, req).catch((e: unknown) => e);
  expect(offThread).toBeInstanceOf(AppError);
  expect(inThread).toBeInstanceOf(AppError);
  const { statusCode, message } = offThread as AppError;
  expect({ statusCode, message }).toEqual({ statusCode: (inThread as AppError).statusCode, message: (inThread as AppError).message });
  return offThread as AppError;
}

describe('the workbook worker', () => {
  it('returns the same drafts as the conversion on this thread (fixture, with job overrides)', async () => {
    const buf = fixture('good.xlsx');
    const req = await requestFor(buf, { arc_rating_override: '40 cal', ehasp_override: 'EH-1' });
    const offThread = await workbookImportOffThread(buf, req);
    expect(offThread).toEqual(await workbookImportOf(buf, req));
    expect(offThread.tickets.every((t) => t.pole.arc_rating === '40 cal' && t.ehasp === 'EH-1')).toBe(true);
  });

  it('returns every ticket of a big workbook, sent back in several batches, in order', async () => {
    const buf = await generateTicketWorkbook(3000, { tasksPerPole: 2 });
    const req = await requestFor(buf);
    const offThread = await workbookImportOffThread(buf, req);
    expect(offThread.tickets).toHaveLength(1500);
    expect(offThread.tickets.reduce((n, t) => n + t.tasks.length, 0)).toBe(3000);
    expect(offThread).toEqual(await workbookImportOf(buf, req));
  });

  it('runs jobs side by side, each answered with its own result', async () => {
    const small = fixture('good.xlsx');
    const big = await generateTicketWorkbook(1200);
    const [reqSmall, reqBig] = await Promise.all([requestFor(small), requestFor(big)]);
    const [a, b, c] = await Promise.all([
      workbookImportOffThread(big, reqBig),
      workbookImportOffThread(small, reqSmall),
      workbookImportOffThread(fixture('bad-row.xlsx'), reqSmall).catch((e: unknown) => e),
    ]);
    expect(a.tickets).toHaveLength(300);
    expect(b).toEqual(await workbookImportOf(small, reqSmall));
    expect(c).toBeInstanceOf(AppError);
  });

  it('answers the same 422 naming the rows for a workbook with bad rows', async () => {
    const err = await failures(fixture('bad-row.xlsx'), await requestFor(fixture('bad-row.xlsx')));
    expect(err.statusCode).toBe(422);
    expect(err.message).toMatch(/^Row \d+: /);
  });

  it('answers the same 415 for a file that is no workbook, and 422 for a legacy .xls or too few columns', async () => {
    const req = await requestFor(fixture('good.xlsx'));
    expect(await failures(fixture('not-a-workbook.xlsx'), req)).toMatchObject({ statusCode: 415, message: expect.stringMatching(/a zip archive without a workbook in it/) });
    expect((await failures(fixture('legacy.xls'), req)).message).toBe(MSG.excelLegacyXls);
    expect((await failures(fixture('too-few-columns.xlsx'), req)).message).toBe(`${MSG.tooFewJobColumns} ${MSG.excelHeaderUsed('Unit Tracking', 1, 5, 9)}`);
    expect((await failures(fixture('too-few-library-columns.xlsx'), req)).message).toBe(`${MSG.tooFewLibraryColumns} ${MSG.excelHeaderUsed('Units', 1, 4, 7)}`);
  });

  it('reads the header lists for getColumns, with the same 422 for too few columns', async () => {
    const buf = fixture('good.xlsx');
    expect(await workbookColumnsOffThread(buf)).toEqual(columnsOf(await parseWorkbook(buf)));
    const err = await workbookColumnsOffThread(fixture('too-few-columns.xlsx')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toBe(`${MSG.tooFewJobColumns} ${MSG.excelHeaderUsed('Unit Tracking', 1, 5, 9)}`);
  });

  it.runIf(process.platform === 'linux')('runs at the lowest priority, behind the server thread', async () => {
    await workbookColumnsOffThread(fixture('good.xlsx'));
    // /proc/<pid>/task/<tid>/stat: the 19th field is the thread's nice value.
    const nice = (tid: string) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[16]);
    const threads = readdirSync('/proc/self/task').map(nice);
    expect(threads).toContain(WORKER_NICE);
    expect(nice(String(process.pid))).toBe(0);
  });

  it('leaves the caller’s buffer usable (the file is copied to the worker)', async () => {
    const buf = fixture('good.xlsx');
    const copy = Buffer.from(buf);
    await workbookImportOffThread(buf, await requestFor(buf));
    expect(buf.equals(copy)).toBe(true);
  });

  it('reads a spreadsheet upload the same way: default mapping, library when mapped, row errors returned', async () => {
    const overrides = { primary_voltage_override: '7.2kV' };
    for (const name of ['good.xlsx', 'tickets.csv', 'bad-row.xlsx']) {
      const offThread = await sheetUploadOffThread(fixture(name), { overrides });
      expect(offThread).toEqual(await sheetUploadOf(fixture(name), { overrides }));
      if (name === 'good.xlsx') expect(offThread.library).toHaveLength(4);
      if (name === 'tickets.csv') expect(offThread.library).toEqual([]);
      if (name === 'bad-row.xlsx') expect(offThread.errors.map((e) => e.row)).toEqual([14, 15]);
    }
    const err = await sheetUploadOffThread(fixture('too-few-columns.xlsx'), {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toBe(`${MSG.tooFewJobColumns} ${MSG.excelHeaderUsed('Unit Tracking', 1, 5, 9)}`);
  });
});

/** Batches folded back into whole drafts, as the server's collector folds them. */
function fold(batches: readonly DraftBatch[]) {
  let tickets: TicketDraft[] = [];
  let library: UnitDraft[] = [];
  const byKey = new Map<string, TicketDraft>();
  for (const b of batches) {
    if (b.restart) {
      tickets = [];
      byKey.clear();
    }
    if (b.library) library = b.library;
    for (const t of structuredClone(b.tickets)) {
      if (t.continued) mergeContinued(byKey.get(t.key)!, t);
      else {
        tickets.push(t);
        byKey.set(t.key, t);
      }
    }
  }
  return { tickets, library };
}

describe('the streamed import (a new job’s: the server writes a batch while the next is read)', () => {
  // 1,200 rows on 300 poles, a pole's four rows 300 rows apart: every ticket is sent first
  // without its Pole ID, street and due date, which its later rows fill in continuations.
  const spread = () => generateTicketWorkbook(1200, { spread: true });

  it('sends batches while reading that fold into exactly the whole conversion', async () => {
    const buf = await spread();
    const req = await requestFor(buf);
    const batches: DraftBatch[] = [];
    await streamWorkbookImport(buf, req, DEFAULT_WORKBOOK_LIMITS, (b) => batches.push(structuredClone(b)));
    expect(batches.length).toBeGreaterThan(3);
    expect(batches[0].library).toHaveLength(100);
    expect(batches.slice(1).every((b) => b.library === undefined && !b.restart)).toBe(true);
    const continued = batches.flatMap((b) => b.tickets).filter((t) => t.continued);
    expect(continued.length).toBeGreaterThan(0);
    // Sent first blank, filled later.
    expect(batches[0].tickets[0]).toMatchObject({ key: 'p-0\u0000l-0', street_address: null, due_date: null, pole: { pole_id: null } });
    const whole = await workbookImportOf(buf, req);
    expect(whole.tickets[0]).toMatchObject({ street_address: '0 Main St', due_date: '2027-01-01', pole: { pole_id: 'NG-0' }, work_orders: ['WO-0-0', 'WO-0-1', 'WO-0-2', 'WO-0-3'] });
    expect(fold(batches)).toEqual(whole);
  });

  it('starts over with `restart` when the streaming reader fails after batches went out, and ends with the same drafts', async () => {
    const buf = await spread();
    const req = await requestFor(buf);
    const batches: DraftBatch[] = [];
    await streamWorkbookImport(buf, req, DEFAULT_WORKBOOK_LIMITS, (b) => batches.push(structuredClone(b)), 700);
    const restart = batches.findIndex((b) => b.restart);
    expect(restart).toBeGreaterThan(0);
    expect(batches[restart].library).toHaveLength(100);
    expect(fold(batches)).toEqual(await workbookImportOf(buf, req));
  });

  it('sends nothing more once a row is bad, and throws the same 422 as the whole conversion', async () => {
    const buf = await generateTicketWorkbook(1200, { spread: true, edit: (i, cells) => i === 1000 && (cells[14] = 'lots') });
    const req = await requestFor(buf);
    const batches: DraftBatch[] = [];
    const err = await streamWorkbookImport(buf, req, DEFAULT_WORKBOOK_LIMITS, (b) => batches.push(b)).catch((e: unknown) => e);
    expect(batches.length).toBeGreaterThan(0);
    expect(Math.max(...batches.flatMap((b) => b.tickets.flatMap((t) => t.tasks.map((k) => k.row))))).toBeLessThan(1003);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toBe(((await workbookImportOf(buf, req).catch((e: unknown) => e)) as AppError).message);
    expect((err as AppError).message).toMatch(/^Row 1003: /);
  });

  it('through the worker: batches as they come, then the file’s error after them', async () => {
    const good = await spread();
    const req = await requestFor(good);
    const batches: DraftBatch[] = [];
    for await (const b of workbookImportBatches(good, req)) batches.push(b);
    expect(fold(batches)).toEqual(await workbookImportOf(good, req));

    const bad = await generateTicketWorkbook(1200, { spread: true, edit: (i, cells) => i === 1000 && (cells[14] = 'lots') });
    const seen: DraftBatch[] = [];
    const err = await (async () => {
      for await (const b of workbookImportBatches(bad, req)) seen.push(b);
    })().catch((e: unknown) => e);
    expect(seen.length).toBeGreaterThan(0);
    expect((err as AppError).statusCode).toBe(422);
    expect((err as AppError).message).toMatch(/^Row 1003: /);
  });

  it('lets the worker run on to its end when the consumer stops early; the next job is answered', async () => {
    const buf = await spread();
    const req = await requestFor(buf);
    for await (const b of workbookImportBatches(buf, req, { userId: 991 })) {
      expect(b.library).toHaveLength(100);
      break;
    }
    // The same user again: the first job has ended (or ends) and its worker is free.
    const again = await (async () => {
      for (let i = 0; i < 50; i++) {
        try {
          return await workbookImportOffThread(buf, req, { userId: 991 });
        } catch (e) {
          if ((e as AppError).statusCode !== 429) throw e;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    })();
    expect(again?.tickets).toHaveLength(300);
  });
});
