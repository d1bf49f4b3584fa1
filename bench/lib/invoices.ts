import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../../src/server/db/client';
import { median, repeat } from './common';

/**
 * An invoice of ~5,000 lines (docs/product/billing.md §4), in process on the run's copy of the data: the
 * preview, the creation (lock the tickets, freeze the lines, number, mark billed: one
 * transaction) and the XLSX and PDF downloads, request to last byte. Each run bills tickets of
 * the big job and is undone afterwards (invoice deleted, tickets as they were), so the other
 * phases see the data unchanged.
 */

export interface InvoiceFigures {
  lines: number;
  tickets: number;
  previewMs: number;
  createMs: number;
  xlsxMs: number;
  xlsxBytes: number;
  pdfMs: number;
  pdfBytes: number;
}

type Inject = (method: 'GET' | 'POST', url: string, payload?: unknown) => Promise<{ statusCode: number; body: string; rawPayload: Buffer }>;

export async function measureInvoice(opts: {
  db: DbOrTx;
  inject: Inject;
  companyId: number;
  jobId: number;
  targetLines: number;
  runs: number;
  timeBudgetMs: number;
}): Promise<InvoiceFigures> {
  const { db, inject, companyId, jobId } = opts;
  // The big job's first tickets until their tasks make the target number of lines.
  const counts = rowsOf<{ id: number; n: number }>(
    await db.execute(sql`
      select t.id, count(tt.id)::int as n from tickets t join ticket_tasks tt on tt.ticket_id = t.id
      where t.company_id = ${companyId} and t.job_id = ${jobId} group by t.id order by t.id`),
  );
  const ids: number[] = [];
  let lines = 0;
  for (const c of counts) {
    if (lines >= opts.targetLines) break;
    ids.push(Number(c.id));
    lines += Number(c.n);
  }
  if (ids.length === 0) throw new Error('the big job has no tasks to invoice');
  const idList = JSON.stringify(ids);
  const inIds = sql`id in (select v::int from jsonb_array_elements_text(${idList}::jsonb) as v)`;
  const before = rowsOf<{ id: number; done: string | null }>(
    await db.execute(sql`select id, actual_completion_date::text as done from tickets where ${inIds}`),
  );
  // Prices where the library has none, so every line has an amount to compute.
  await db.execute(sql`update units set unit_price = 10 + (id % 50) + 0.25 where company_id = ${companyId} and unit_price is null`);

  const ms = async (method: 'GET' | 'POST', url: string, payload?: unknown, expect = 200) => {
    const t0 = performance.now();
    const res = await inject(method, url, payload);
    if (res.statusCode !== expect) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    return { ms: performance.now() - t0, res };
  };

  const runs = await repeat(opts.runs, opts.timeBudgetMs, async () => {
    await db.execute(sql`update tickets set actual_completion_date = coalesce(actual_completion_date, now()), billed_at = null, invoice_number = null where ${inIds}`);
    let invoiceId: number | null = null;
    try {
      const preview = await ms('POST', `/api/v1/jobs/${jobId}/invoices/preview`, { ticket_ids: ids });
      const create = await ms('POST', `/api/v1/jobs/${jobId}/invoices`, { ticket_ids: ids }, 201);
      invoiceId = (JSON.parse(create.res.body) as { invoice: { id: number } }).invoice.id;
      const xlsx = await ms('GET', `/api/v1/invoices/${invoiceId}/xlsx`);
      const pdf = await ms('GET', `/api/v1/invoices/${invoiceId}/pdf`);
      return { preview: preview.ms, create: create.ms, xlsx: xlsx.ms, xlsxBytes: xlsx.res.rawPayload.length, pdf: pdf.ms, pdfBytes: pdf.res.rawPayload.length };
    } finally {
      // Undo: the invoice (its lines and billed_tickets rows go by cascade) and the tickets' marks.
      if (invoiceId !== null) await db.execute(sql`delete from invoices where id = ${invoiceId}`);
      await db.execute(sql`update tickets set billed_at = null, invoice_number = null, actual_completion_date = null where ${inIds}`);
      for (const b of before) if (b.done) await db.execute(sql`update tickets set actual_completion_date = ${b.done}::timestamptz where id = ${b.id}`);
    }
  });
  return {
    lines,
    tickets: ids.length,
    previewMs: median(runs.map((r) => r.preview)),
    createMs: median(runs.map((r) => r.create)),
    xlsxMs: median(runs.map((r) => r.xlsx)),
    xlsxBytes: runs[0].xlsxBytes,
    pdfMs: median(runs.map((r) => r.pdf)),
    pdfBytes: runs[0].pdfBytes,
  };
}
