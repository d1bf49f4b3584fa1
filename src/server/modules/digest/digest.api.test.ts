import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { openDatabase, rowsOf } from '../../db/client';
import { companies, digestRuns, jobs, permits, permitTypes, poles, tickets, users, utilities } from '../../db/schema/index';
import { createMailer } from '../../mail/mailer';
import { createTestApp, dbKind } from '../../test/harness';
import type { AppContext } from '../../context';
import { runDueDigests, startDigestScheduler } from './digest.service';

/**
 * The daily digest (docs/product/records.md §3, decision 046) with a clock the test sets, mailed through a real
 * SMTP peer (smtp-server on loopback) and read back from it: who got a mail and what it lists.
 */
interface Received {
  to: string[];
  subject: string;
  body: string;
}
const received: Received[] = [];
/** The text of a raw message: headers unfolded, quoted-printable undone. */
function parse(raw: string, to: string[]): Received {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const subject = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(head)?.[1].replace(/\r?\n[ \t]/g, ' ') ?? '';
  const body = rest
    .join('\n\n')
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\r\n/g, '\n');
  return { to, subject, body };
}
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, callback) {
    let raw = '';
    stream.on('data', (c: Buffer) => (raw += c.toString()));
    stream.on('end', () => {
      received.push(parse(raw, session.envelope.rcptTo.map((r) => r.address)));
      callback();
    });
  },
});
await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}?ignoreTLS=true`;
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

const t = await createTestApp({ mail: createMailer({ smtpUrl, outboxDir: '/nonexistent', from: 'Linecrew <digest@example.com>' }) });
const ctx = t.ctx;
const at = (iso: string) => () => new Date(iso);

/** The addresses of this file's people; the seeded companies get their own digests, not looked at here. */
const mail = {
  nyAdmin: 'digest-ny-admin@example.com',
  nyOffice: 'digest-ny-office@example.com',
  nyForeman1: 'digest-ny-f1@example.com',
  nyForeman2: 'digest-ny-f2@example.com',
  nyLineman: 'digest-ny-lineman@example.com',
  nyInactive: 'digest-ny-inactive@example.com',
  laAdmin: 'digest-la-admin@example.com',
  quietAdmin: 'digest-quiet-admin@example.com',
};
const ours = new Set(Object.values(mail));
/** Mail to this file's people received since index `from`, as 'address' lists. */
const sentSince = (from: number) =>
  received
    .slice(from)
    .flatMap((m) => m.to)
    .filter((a) => ours.has(a))
    .sort();
const mailTo = (address: string, from = 0) => received.slice(from).filter((m) => m.to.includes(address));

let ny = 0;
let la = 0;
let quiet = 0;

async function company(name: string, timeZone: string) {
  const [c] = await ctx.db.insert(companies).values({ name, timeZone }).returning();
  const [u] = await ctx.db.insert(utilities).values({ companyId: c.id, code: 'UTIL' }).returning();
  return { id: c.id, utility: u.id };
}
async function person(companyId: number, email: string, roleId: number, crewStatus = 1) {
  const [u] = await ctx.db
    .insert(users)
    .values({ companyId, email, roleId, crewStatus, firstName: email.split('@')[0].split('-').at(-1)!, lastName: 'Test', passwordHash: 'not-a-real-hash' })
    .returning();
  return u.id;
}
async function job(c: { id: number; utility: number }, jobNumber: string, foremanId: number | null) {
  const [j] = await ctx.db.insert(jobs).values({ companyId: c.id, utilityId: c.utility, jobNumber, foremanId, dueDate: '2027-12-31' }).returning();
  return j.id;
}
async function ticket(c: { id: number; utility: number }, jobId: number, pole: string, fields: Partial<typeof tickets.$inferInsert> = {}) {
  const [p] = await ctx.db.insert(poles).values({ companyId: c.id, utilityId: c.utility, poleName: pole, lineName: 'L9' }).returning();
  const [tk] = await ctx.db.insert(tickets).values({ companyId: c.id, jobId, poleId: p.id, ...fields }).returning();
  return tk.id;
}

beforeAll(async () => {
  const a = await company('Digest NY Co', 'America/New_York');
  const b = await company('Digest LA Co', 'America/Los_Angeles');
  const q = await company('Digest Quiet Co', 'America/New_York');
  [ny, la, quiet] = [a.id, b.id, q.id];
  await person(a.id, mail.nyAdmin, 1);
  await person(a.id, mail.nyOffice, 2);
  const f1 = await person(a.id, mail.nyForeman1, 3);
  const f2 = await person(a.id, mail.nyForeman2, 3);
  await person(a.id, mail.nyLineman, 5);
  await person(a.id, mail.nyInactive, 2, 2);
  const [roadOpening] = await ctx.db.insert(permitTypes).values({ companyId: a.id, title: 'Road opening' }).returning();
  const j1 = await job(a, 'NY-100', f1);
  const j2 = await job(a, 'NY-200', f2);
  // NY-100 (foreman 1): overdue since February with an expired permit; a permit expiring soon;
  // dig safe that is clear but expires within the week; a completed overdue ticket (not listed).
  const late = await ticket(a, j1, 'P1', { dueDate: '2026-02-01' });
  await ctx.db.insert(permits).values({ companyId: a.id, ticketId: late, permitTypeId: roadOpening.id, number: 'RO-1', expiresOn: '2026-03-01' });
  const soon = await ticket(a, j1, 'P2', { dueDate: '2026-04-30' });
  await ctx.db.insert(permits).values({ companyId: a.id, ticketId: soon, permitTypeId: roadOpening.id, number: 'RO-2', expiresOn: '2026-03-12' });
  await ticket(a, j1, 'P3', { dueDate: '2026-03-09', digSafeRequired: 1, digSafeNumber: 'DS-3', digSafeExpiresOn: '2026-03-10' });
  await ticket(a, j1, 'P4', { dueDate: '2026-01-15', actualCompletionDate: new Date('2026-01-14T15:00:00Z') });
  // NY-200 (foreman 2): needs dig safe, which expired before the morning.
  await ticket(a, j2, 'P5', { dueDate: '2026-04-01', digSafeRequired: 1, digSafeNumber: 'DS-5', digSafeExpiresOn: '2026-03-05' });
  // LA: one overdue ticket. Quiet: a ticket due later, no permit, no dig safe: nothing to report.
  await person(b.id, mail.laAdmin, 1);
  await ticket(b, await job(b, 'LA-1', null), 'Q1', { dueDate: '2026-01-01' });
  await person(q.id, mail.quietAdmin, 1);
  await ticket(q, await job(q, 'QQ-1', null), 'R1', { dueDate: '2027-06-01' });
});

const runsOf = (companyId: number) => ctx.db.select().from(digestRuns).where(eq(digestRuns.companyId, companyId)).orderBy(digestRuns.day);

describe('the daily digest', () => {
  it('goes out at 06:00 company time on the day clocks spring forward, once, with the lists each person should read', async () => {
    const start = received.length;
    // 2026-03-08: New York moves from EST to EDT at 02:00, so 06:00 there is 10:00 UTC (11:00 the day before).
    await runDueDigests(ctx, { now: at('2026-03-08T09:59:00Z') });
    expect(sentSince(start)).toEqual([]);
    await runDueDigests(ctx, { now: at('2026-03-08T10:00:00Z') });
    // Office roles and each foreman with something on his jobs; not the lineman, not the inactive
    // office manager; Los Angeles is at 03:00 and the quiet company has nothing to report.
    expect(sentSince(start)).toEqual([mail.nyAdmin, mail.nyForeman1, mail.nyForeman2, mail.nyOffice].sort());

    const [admin] = mailTo(mail.nyAdmin, start);
    expect(admin.subject).toBe(
      'Linecrew daily digest 03/08/2026: 1 not clear to dig, 1 permits expired, 1 permits expiring within 7 days, 1 dig safe expiring within 7 days, 1 overdue tickets',
    );
    expect(admin.body).toContain(
      [
        'Not clear to dig (1)',
        '- Job NY-200, P5 / L9: Dig safe expired 03/05/2026',
        '',
        'Permits expired (1)',
        '- Job NY-100, P1 / L9: Permit RO-1 (Road opening) expired 03/01/2026',
        '',
        'Permits expiring within 7 days (1)',
        '- Job NY-100, P2 / L9: Permit RO-2 (Road opening) expires 03/12/2026 (in 4 days)',
        '',
        'Dig safe expiring within 7 days (1)',
        '- Job NY-100, P3 / L9: Dig safe DS-3 expires 03/10/2026 (in 2 days)',
        '',
        'Overdue tickets (1)',
        '- Job NY-100, P1 / L9: Due 02/01/2026 (35 days overdue)',
      ].join('\n'),
    );
    expect(mailTo(mail.nyOffice, start)[0].body).toBe(admin.body.replace('Hello admin', 'Hello office'));
    // A foreman reads his own job's tickets only.
    const [f1] = mailTo(mail.nyForeman1, start);
    expect(f1.body).toContain('NY-100');
    expect(f1.body).not.toContain('NY-200');
    const [f2] = mailTo(mail.nyForeman2, start);
    expect(f2.subject).toBe('Linecrew daily digest 03/08/2026: 1 not clear to dig');
    expect(f2.body).toContain('- Job NY-200, P5 / L9: Dig safe expired 03/05/2026');
    expect(f2.body).not.toContain('NY-100');

    // Every later pass that day sends nothing again, in any process.
    const after = received.length;
    await runDueDigests(ctx, { now: at('2026-03-08T10:01:00Z') });
    await runDueDigests(ctx, { now: at('2026-03-08T12:59:00Z'), holder: 'another process' });
    expect(sentSince(after)).toEqual([]);
    expect(await runsOf(ny)).toEqual([expect.objectContaining({ day: '2026-03-08', sentAt: expect.any(Date) })]);
  });

  it('goes out at 06:00 company time on the day clocks fall back, per zone: New York at 11:00 UTC, Los Angeles at 14:00 UTC', async () => {
    const start = received.length;
    // 2026-11-01: 10:00 UTC was 06:00 EDT, but the clocks went back at 06:00 UTC: it is 05:00 EST.
    await runDueDigests(ctx, { now: at('2026-11-01T10:00:00Z') });
    await runDueDigests(ctx, { now: at('2026-11-01T10:59:00Z') });
    expect(sentSince(start)).toEqual([]);
    await runDueDigests(ctx, { now: at('2026-11-01T11:00:00Z') });
    expect(sentSince(start)).toEqual([mail.nyAdmin, mail.nyForeman1, mail.nyForeman2, mail.nyOffice].sort());
    const ny0 = received.length;
    // Los Angeles falls back too (at 09:00 UTC): its 06:00 PST is 14:00 UTC.
    await runDueDigests(ctx, { now: at('2026-11-01T13:59:00Z') });
    expect(sentSince(ny0)).toEqual([]);
    await runDueDigests(ctx, { now: at('2026-11-01T14:00:00Z') });
    expect(sentSince(ny0)).toEqual([mail.laAdmin]);
    expect(mailTo(mail.laAdmin, ny0)[0].body).toContain('- Job LA-1, Q1 / L9: Due 01/01/2026 (304 days overdue)');
  });

  it('sends nothing when there is nothing to report, and records the day as done', async () => {
    expect(mailTo(mail.quietAdmin)).toEqual([]);
    const runs = await runsOf(quiet);
    expect(runs.map((r) => r.day)).toEqual(['2026-03-08', '2026-11-01']);
    expect(runs.every((r) => r.sentAt !== null && r.sentTo.length === 0)).toBe(true);
  });

  it('catches up when a process starts late: started at 09:00, it sends that morning’s digest on its first pass', async () => {
    const start = received.length;
    const stop = startDigestScheduler(ctx, { now: at('2026-03-09T13:00:00Z'), everyMs: 60_000 });
    await stop();
    // 09:00 EDT in New York, 06:00 PDT in Los Angeles: both due, both sent once.
    expect(sentSince(start)).toEqual([mail.laAdmin, mail.nyAdmin, mail.nyForeman1, mail.nyForeman2, mail.nyOffice].sort());
    expect((await runsOf(la)).map((r) => r.day)).toEqual(['2026-03-09', '2026-11-01']);
  });

  it('takes over a claim whose process stopped mid-way, skipping who was already mailed', async () => {
    const start = received.length;
    const office = (await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, mail.nyOffice)))[0].id;
    // Another process claimed 03/10 at 06:00, mailed the office manager, then died.
    await ctx.db.insert(digestRuns).values({ companyId: ny, day: '2026-03-10', claimedAt: new Date('2026-03-10T10:00:00Z'), claimedBy: 'gone', sentTo: [office] });
    await runDueDigests(ctx, { now: at('2026-03-10T10:05:00Z') });
    expect(sentSince(start).filter((a) => a.startsWith('digest-ny'))).toEqual([]);
    await runDueDigests(ctx, { now: at('2026-03-10T10:16:00Z') });
    expect(sentSince(start).filter((a) => a.startsWith('digest-ny'))).toEqual([mail.nyAdmin, mail.nyForeman1, mail.nyForeman2].sort());
  });

  it.skipIf(dbKind !== 'postgres')('is sent once when two app instances pass at the same time on PostgreSQL', async () => {
    const second = await openDatabase({ databaseUrl: t.databaseUrl!, poolSize: 4 });
    const other: AppContext = { ...ctx, db: second.db, mail: createMailer({ smtpUrl, outboxDir: '/nonexistent', from: 'Linecrew <digest@example.com>' }) };
    try {
      const start = received.length;
      for (const now of ['2026-03-11T10:00:00Z', '2026-03-12T14:30:00Z', '2026-03-13T16:00:00Z']) {
        await Promise.all([
          runDueDigests(ctx, { now: at(now), holder: 'instance A' }),
          runDueDigests(other, { now: at(now), holder: 'instance B' }),
          runDueDigests(ctx, { now: at(now), holder: 'instance A again' }),
          runDueDigests(other, { now: at(now), holder: 'instance B again' }),
        ]);
      }
      const perDay = [mail.laAdmin, mail.nyAdmin, mail.nyForeman1, mail.nyForeman2, mail.nyOffice];
      // 03/11 10:00 UTC is 03:00 in Los Angeles: New York only. Then both, on each day.
      expect(sentSince(start)).toEqual([...perDay.slice(1), ...perDay, ...perDay].sort());
      const claims = rowsOf<{ day: string }>(await t.ctx.db.execute(sql`select day from digest_runs where company_id = ${ny} and day between '2026-03-11' and '2026-03-13' order by day`));
      expect(claims.map((c) => c.day)).toEqual(['2026-03-11', '2026-03-12', '2026-03-13']);
    } finally {
      await second.close();
    }
  });
});
