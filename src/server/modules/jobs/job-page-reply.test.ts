import { describe, expect, it } from 'vitest';
import type { JobListItem } from '../../../shared/jobs.schemas';
import type { TicketRow } from '../../../shared/tickets.schemas';
import { assembleJobPage, freshTicket, mergeTickets, staleTickets } from './job-page-reply';

/** The pieces the job page's reply is put together from (the API test checks them against getJob). */
const header = { id: 7, job_number: 'J-7', status: 'In Progress', ticket_count: 3 } as unknown as JobListItem;
const row = (id: number, description = `t${id}`) => ({ id, street_address: description, note_count: 0 }) as unknown as TicketRow;

describe('assembleJobPage', () => {
  it('makes exactly the bytes of JSON.stringify({ ...header, tickets, company_time_zone, evidence_photos_required })', () => {
    const rows = [row(1), row(2, 'quote " and ü'), row(5)];
    const built = assembleJobPage(header, 'America/New_York', 2, rows.map((r, i) => freshTicket({ row: r, xmin: 100 + i })));
    expect(built.json.toString()).toBe(JSON.stringify({ ...header, tickets: rows, company_time_zone: 'America/New_York', evidence_photos_required: 2 }));
    expect([...built.state.ids]).toEqual([1, 2, 5]);
    expect([...built.state.xmins]).toEqual([100, 101, 102]);
    built.state.ids.forEach((_, i) => expect(JSON.parse(built.json.subarray(built.state.starts[i], built.state.ends[i]).toString())).toEqual(rows[i]));
    expect(assembleJobPage(header, 'UTC', 1, []).json.toString()).toBe(JSON.stringify({ ...header, tickets: [], company_time_zone: 'UTC', evidence_photos_required: 1 }));
  });
});

describe('a rebuild from the kept reply', () => {
  const kept = assembleJobPage(header, 'UTC', 1, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((id) => freshTicket({ row: row(id), xmin: id })));

  it('re-reads new tickets and those with another xmin; everything when nothing is kept or over 20 % changed', () => {
    const now = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((id) => ({ id, xmin: id === 4 ? 99 : id }));
    expect(staleTickets(kept.state, now)).toEqual([4]);
    expect(staleTickets(kept.state, [...now, { id: 11, xmin: 1 }])).toEqual([4, 11]);
    expect(staleTickets(undefined, now)).toBeNull();
    expect(staleTickets(kept.state, now.map((t) => (t.id <= 3 ? { ...t, xmin: 50 } : t)))).toBeNull();
  });

  it('keeps the unchanged rows as they were, takes the fresh ones, drops deleted tickets and those gone since', () => {
    // 3 deleted; 4 changed; 11 new; 6 changed but deleted before it was re-read.
    const now = [1, 2, 4, 5, 6, 7, 8, 9, 10, 11].map((id) => ({ id, xmin: id === 4 || id === 6 ? 99 : id }));
    const fresh = [freshTicket({ row: row(4, 'changed'), xmin: 99 }), freshTicket({ row: row(11), xmin: 11 })];
    const rebuilt = assembleJobPage(header, 'UTC', 1, mergeTickets(kept, now, fresh));
    const expected = [1, 2, 4, 5, 7, 8, 9, 10, 11].map((id) => (id === 4 ? row(4, 'changed') : row(id)));
    expect(rebuilt.json.toString()).toBe(JSON.stringify({ ...header, tickets: expected, company_time_zone: 'UTC', evidence_photos_required: 1 }));
    expect([...rebuilt.state.xmins]).toEqual([1, 2, 99, 5, 7, 8, 9, 10, 11]);
  });
});
