import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app';
import { keptFiguresDiff } from './kept-figures';
import { loadConfig, type Config } from '../config';
import { openDatabase, type Database } from '../db/client';
import { companies, jobs, units, users, utilities } from '../db/schema/index';
import { createMailer, type Mailer } from '../mail/mailer';
import { DEMO_PASSWORD } from '../db/seed/seed';
import { makeStorageKey, type StorageKind } from '../storage/keys';
import { LocalStorage } from '../storage/local';
import type { Storage } from '../storage/storage';
import type { App, AppContext } from '../context';
import type { JobListItem, JobSaveInput } from '../../shared/jobs.schemas';
import { PG_TEMPLATE_DB, PGLITE_TEMPLATE, withDatabase } from './global-setup';
import { SEEDED_USERS, type SeededRole } from './seeded-users';

/** Which database this test run uses: the vitest project sets TEST_DB_KIND (vitest.config.ts). */
export const dbKind = process.env.TEST_DB_KIND === 'postgres' ? 'postgres' : 'pglite';

export interface TestApp {
  app: App;
  ctx: AppContext;
  database: Database;
  /** The PostgreSQL URL of this test's own database (undefined on PGlite): a second app instance opens it. */
  databaseUrl?: string;
  config: Config;
  dataDir: string;
  /** Signs in a seeded demo user (password 'linecrew') and returns the bearer token. */
  login(email: string, password?: string): Promise<string>;
  /**
   * Ids of the seeded demo company: the company, its NGRID utility, its jobs by number (J-1001…),
   * NGRID's units (id order) and its people by the part of their email before the @ (admin, foreman…).
   */
  demo(): Promise<{ company: number; ngrid: number; job: Record<string, number>; ngridUnits: number[]; person: Record<string, number> }>;
  /** Signs in seeded users by role, at once; the tokens in the order asked. */
  loginAs(...roles: SeededRole[]): Promise<string[]>;
  /** app.inject with an optional token and JSON body; the parsed body is on `.json()`. */
  request(opts: Omit<InjectOptions, 'body'> & { token?: string; body?: unknown }): Promise<LightMyRequestResponse>;
  /** Mail written to the outbox so far, oldest first, as raw .eml text. */
  outbox(): string[];
  /**
   * A file really stored under the company's prefix, as the signed-upload flow leaves it (the
   * browser PUTs the bytes, then sends the url). The content type follows the kind unless given.
   */
  storeFile(companyId: number, kind: StorageKind, name: string, file?: { body?: Buffer; type?: string }): Promise<{ key: string; url: string }>;
  /**
   * A new job through PUT /jobs/, as the create modal sends it: a stored packet PDF, job type 0,
   * due 12/31/2027, then `fields` (number, utility, newTickets, newUnits…). Throws unless 200.
   */
  createJob(token: string, companyId: number, fields: Partial<JobSaveInput> & Pick<JobSaveInput, 'job_number' | 'selected_utility_id'>): Promise<JobListItem>;
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const typeOfKind = (kind: StorageKind) => (kind === 'excel' ? XLSX : kind === 'media' || kind === 'thumbnail' ? 'image/jpeg' : 'application/pdf');

/**
 * A fresh app on a fresh copy of the migrated, seeded database, per test file. Real database
 * (PGlite, or the PostgreSQL server of TEST_DATABASE_URL), real files on disk, real outbox.
 */
export async function createTestApp(overrides: { mail?: Mailer; storage?: Storage; env?: NodeJS.ProcessEnv } = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'linecrew-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
    PUBLIC_URL: 'http://localhost:3000',
    ...overrides.env,
  });

  let database: Database;
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (dbKind === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DB_KIND=postgres needs TEST_DATABASE_URL');
    const name = `linecrew_t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${PG_TEMPLATE_DB}`);
    await admin.end();
    databaseUrl = withDatabase(url, name);
    database = await openDatabase({ databaseUrl, poolSize: 4 });
    dropDatabase = async () => {
      const a = new pg.Client({ connectionString: url });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    };
  } else {
    const dump = readFileSync(PGLITE_TEMPLATE);
    database = await openDatabase({ pgliteLoad: new Blob([dump]) });
  }

  const outboxDir = path.join(dataDir, 'outbox');
  const ctx: AppContext = {
    db: database.db,
    config,
    mail: overrides.mail ?? createMailer({ outboxDir, from: config.mailFrom }),
    storage: overrides.storage ?? new LocalStorage(path.join(dataDir, 'files'), config.jwtSecret),
  };
  // Unexpected errors (500s) are printed, so a failing test shows why.
  const app = await buildApp({ ...ctx, logger: { level: 'error' } });
  await app.ready();

  const request: TestApp['request'] = ({ token, body, headers, ...rest }) =>
    app.inject({
      ...rest,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      ...(body !== undefined ? { payload: body as InjectOptions['payload'] } : {}),
    });

  const testApp: TestApp = {
    app,
    ctx,
    database,
    databaseUrl,
    config,
    dataDir,
    request,
    async login(email, password = DEMO_PASSWORD) {
      const res = await request({ method: 'POST', url: '/api/v1/crew/login', body: { email, password } });
      if (res.statusCode !== 200) throw new Error(`login ${email} failed: ${res.statusCode} ${res.body}`);
      return res.json().token as string;
    },
    async demo() {
      const [u] = await ctx.db
        .select({ company: utilities.companyId, ngrid: utilities.id })
        .from(utilities)
        .innerJoin(companies, eq(companies.id, utilities.companyId))
        .where(and(eq(companies.name, 'Demo Line Co'), eq(utilities.code, 'NGRID')));
      const [js, us, people] = await Promise.all([
        ctx.db.select({ id: jobs.id, number: jobs.jobNumber }).from(jobs).where(eq(jobs.companyId, u.company)),
        ctx.db.select({ id: units.id }).from(units).where(and(eq(units.companyId, u.company), eq(units.utilityId, u.ngrid))).orderBy(units.id),
        ctx.db.select({ id: users.id, email: users.email }).from(users).where(eq(users.companyId, u.company)),
      ]);
      return {
        ...u,
        job: Object.fromEntries(js.map((j) => [j.number, j.id])),
        ngridUnits: us.map((x) => x.id),
        person: Object.fromEntries(people.map((p) => [p.email.split('@')[0], p.id])),
      };
    },
    loginAs(...roles) {
      return Promise.all(roles.map((role) => testApp.login(SEEDED_USERS[role])));
    },
    async createJob(token, companyId, fields) {
      const packet = await testApp.storeFile(companyId, 'work_packet', 'packet.pdf');
      const job: JobSaveInput = { job_type: 0, due_date: '12/31/2027', work_packet_url: packet.url, work_packet_name: 'packet.pdf', ...fields };
      const res = await request({ method: 'PUT', url: '/api/v1/jobs/', token, body: { job } });
      if (res.statusCode !== 200) throw new Error(`creating job ${fields.job_number} failed: ${res.statusCode} ${res.body}`);
      return res.json().job as JobListItem;
    },
    async storeFile(companyId, kind, name, { body = Buffer.from('%PDF-1.4 test'), type = typeOfKind(kind) } = {}) {
      const key = makeStorageKey(companyId, kind, name);
      await ctx.storage.put(key, body, type);
      return { key, url: ctx.storage.urlFor(key) };
    },
    outbox() {
      try {
        return readdirSync(outboxDir)
          .filter((f) => f.endsWith('.eml'))
          .sort()
          .map((f) => readFileSync(path.join(outboxDir, f), 'utf8'));
      } catch {
        return [];
      }
    },
  };

  afterAll(async () => {
    // Whatever the file's tests wrote, through whichever path, the kept production figures
    // (migration 0030) must equal the sums they stand for.
    const diff = await keptFiguresDiff(ctx.db).catch((e: unknown) => ({ error: String(e) }));
    await app.close();
    await database.close();
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
    if (Object.keys(diff).length > 0) throw new Error(`kept production figures differ from the sums over the tasks: ${JSON.stringify(diff)}`);
  });
  return testApp;
}

/** The reset link's token and user id from a raw .eml (quoted-printable soft breaks removed). */
export function resetLinkFrom(eml: string): { resetToken: string; userId: number } {
  const flat = eml.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const m = /resetPassword\?resetToken=([A-Za-z0-9_-]+)&(?:amp;)?userId=(\d+)/.exec(flat);
  if (!m) throw new Error(`no reset link in mail:\n${eml}`);
  return { resetToken: m[1], userId: Number(m[2]) };
}
