import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, unique, USERS, DEMO_PASSWORD } from './fixtures';

const here = path.dirname(fileURLToPath(import.meta.url));
export const fixture = (name: string) => path.join(here, 'fixtures', name);
export const API = '/api/v1';

export interface NewTicket {
  pole: { pole_name: string; line_name: string };
  tasks?: { code: string; init_qty: number }[];
  work_orders?: string[];
  street_address?: string;
  due_date?: string;
  description?: string;
}

/**
 * A job of our own, made through the API (not the jobs UI): sign in, upload the work packet
 * through the signed-upload flow, then PUT /jobs/ with newTickets.
 */
export async function createJob(request: APIRequestContext, tickets: NewTicket[]): Promise<{ id: number; number: string; token: string }> {
  const login = await request.post(`${API}/crew/login`, { data: { email: USERS.admin, password: DEMO_PASSWORD } });
  expect(login.ok()).toBeTruthy();
  const { token } = (await login.json()) as { token: string };
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
      },
    },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  const body = (await res.json()) as { job: { id: number } };
  return { id: body.job.id, number, token };
}

export const ticketWindow = (page: Page) => page.getByRole('dialog', { name: /Ticket/ });
/** A ticket's row in the desktop table. */
export const row = (page: Page, pole: string) => page.locator('[data-ticket-id]').filter({ has: page.getByRole('cell', { name: pole, exact: true }) });

export async function openJob(page: Page, jobId: number) {
  await page.goto(`/job?id=${jobId}`);
  await expect(page.getByRole('table', { name: 'Tickets' })).toBeVisible({ timeout: 45_000 });
}
