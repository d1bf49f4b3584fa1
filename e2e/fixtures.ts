import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { SEEDED_USERS } from '../src/server/test/seeded-users';

export const DEMO_PASSWORD = 'linecrew';
/** The seeded demo users by role, the same the API tests sign in as. */
export const USERS = SEEDED_USERS;

export const API = '/api/v1';
const here = path.dirname(fileURLToPath(import.meta.url));
/** A file of e2e/fixtures (work packet, photos). */
export const fixture = (name: string) => path.join(here, 'fixtures', name);

/**
 * Signs in through the login form, as a person would, and waits for the next page. Fields are
 * found by role and name: the password's visibility toggle shares its label.
 */
export async function login(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
}

/** Picks an option of a Mantine Select by its label. */
export async function choose(page: Page, scope: Locator, label: string, option: string) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** A unique suffix so that parallel journeys never collide on job numbers or emails. */
export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A bearer token of the demo admin, for setting up and tearing down through the API. */
async function adminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post(`${API}/crew/login`, { data: { email: USERS.admin, password: DEMO_PASSWORD } });
  expect(res.ok()).toBeTruthy();
  return ((await res.json()) as { token: string }).token;
}

export interface SeededJob {
  id: number;
  number: string;
  /** The admin token the job was made with. */
  token: string;
}

export interface NewTicket {
  pole: { pole_name: string; line_name: string };
  tasks?: { code: string; init_qty: number }[];
  work_orders?: string[];
  street_address?: string;
  due_date?: string;
  description?: string;
  /** Where the pole stands (degrees); without them the ticket is not on the map. */
  geo_lat?: number;
  geo_lon?: number;
}

/**
 * A job of our own, made through the API (not the jobs UI): sign in, upload the work packet
 * through the signed-upload flow, then PUT /jobs/ with newTickets.
 */
export async function createJob(request: APIRequestContext, tickets: NewTicket[], fields: Record<string, unknown> = {}): Promise<SeededJob> {
  const token = await adminToken(request);
  const auth = { Authorization: `Bearer ${token}` };

  const pdf = readFileSync(fixture('packet.pdf'));
  const q = new URLSearchParams({ directory: 'work_packet', fileName: 'packet.pdf', fileType: 'application/pdf', fileSize: String(pdf.length) });
  const sign = await request.get(`${API}/doc_upload/sign-s3-pdf?${q}`, { headers: auth });
  expect(sign.ok()).toBeTruthy();
  const signed = (await sign.json()) as { signedRequest: string; url: string; headers: Record<string, string> };
  const put = await request.put(signed.signedRequest, { headers: signed.headers, data: pdf });
  expect(put.ok(), `${put.status()} ${await put.text()}`).toBeTruthy();

  const utilities = (await (await request.get(`${API}/utilities`, { headers: auth })).json()) as { id: number; code: string }[];
  const ngrid = utilities.find((u) => u.code === 'NGRID')!;
  const number = unique('TIX');
  const due = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
  const res = await request.put(`${API}/jobs/`, {
    headers: auth,
    data: {
      job: {
        job_number: number,
        job_type: 0,
        due_date: due,
        selected_utility_id: ngrid.id,
        work_packet_url: signed.url,
        work_packet_name: 'packet.pdf',
        newTickets: tickets,
        ...fields,
      },
    },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  const body = (await res.json()) as { job: { id: number } };
  return { id: body.job.id, number, token };
}

export const test = base.extend<{ loginAs: (email: string) => Promise<void>; seededJob: (tickets: NewTicket[], fields?: Record<string, unknown>) => Promise<SeededJob>; cspGuard: void }>({
  loginAs: async ({ page }, use) => {
    await use((email) => login(page, email));
  },
  // Jobs made through the API for one test, deleted after it (also when it fails), so the shared
  // database does not fill up with test jobs. A job the test deleted itself answers 404: fine.
  seededJob: async ({ request }, use) => {
    const made: number[] = [];
    await use(async (tickets, fields) => {
      const job = await createJob(request, tickets, fields);
      made.push(job.id);
      return job;
    });
    if (made.length === 0) return;
    // A fresh token: the test may have ended the admin's sessions (logout, password reset).
    const auth = { Authorization: `Bearer ${await adminToken(request)}` };
    for (const id of made) {
      const res = await request.delete(`${API}/jobs/${id}`, { headers: auth });
      expect([200, 404], `deleting seeded job ${id}: ${await res.text()}`).toContain(res.status());
    }
  },
  // Every journey runs under the server's Content-Security-Policy: anything the policy blocks
  // (a script, a style, an image or an upload to the file store) fails the journey.
  cspGuard: [
    async ({ page }, use) => {
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      await use();
      expect(violations, 'the page broke the Content-Security-Policy').toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };
