import { readFileSync } from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { API, DEMO_PASSWORD, expect, fixture, login, unique, USERS } from './fixtures';
import { test } from './netcut';

// The offline app: the service worker serves it without a network (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/**
 * The jobs list pages on the server (docs/product/scale.md §2, decision 053): the browser asks for
 * 50 jobs at a time, already searched, filtered and sorted; the next page by its cursor. Run in the
 * second company (Other Line Co), whose list no other journey reads by position, with 55 jobs of
 * a number of their own, deleted afterwards. The network is cut at a proxy (netcut.ts) to show
 * that what was read stays on screen.
 */
async function fiftyFiveJobs(request: APIRequestContext) {
  const signIn = await request.post(`${API}/crew/login`, { data: { email: USERS.other, password: DEMO_PASSWORD } });
  expect(signIn.ok(), await signIn.text()).toBeTruthy();
  const auth = { Authorization: `Bearer ${((await signIn.json()) as { token: string }).token}` };
  const pdf = readFileSync(fixture('packet.pdf'));
  const q = new URLSearchParams({ directory: 'work_packet', fileName: 'packet.pdf', fileType: 'application/pdf', fileSize: String(pdf.length) });
  const signed = (await (await request.get(`${API}/doc_upload/sign-s3-pdf?${q}`, { headers: auth })).json()) as { signedRequest: string; url: string; headers: Record<string, string> };
  expect((await request.put(signed.signedRequest, { headers: signed.headers, data: pdf })).ok()).toBeTruthy();
  const utilities = (await (await request.get(`${API}/utilities`, { headers: auth })).json()) as { id: number; code: string }[];
  const prefix = unique('PL');
  const ids: number[] = [];
  for (let i = 0; i < 55; i++) {
    const job = {
      job_number: `${prefix}-${i}`,
      job_type: 0,
      due_date: '2027-06-30',
      selected_utility_id: utilities.find((u) => u.code === 'OTHERPOWER')!.id,
      work_packet_url: signed.url,
      work_packet_name: 'packet.pdf',
    };
    const res = await request.put(`${API}/jobs/`, { headers: auth, data: { job } });
    expect(res.ok(), await res.text()).toBeTruthy();
    ids.push(((await res.json()) as { job: { id: number } }).job.id);
  }
  return {
    prefix,
    remove: async () => {
      for (const id of ids) expect([200, 404]).toContain((await request.delete(`${API}/jobs/${id}`, { headers: auth })).status());
    },
  };
}

test('the jobs list searches, sorts and pages on the server, and keeps what it read without a network', async ({ page, request, net }) => {
  test.setTimeout(180_000);
  const jobs = await fiftyFiveJobs(request);
  try {
    const lists: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname === `${API}/jobs`) lists.push(url.search);
    });
    await login(page, USERS.other);
    await expect(page.getByRole('heading', { name: 'Job View' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Search jobs' }).fill(jobs.prefix.toLowerCase());
    await expect(page.getByText('Showing 1–50 of 55 jobs')).toBeVisible();
    const table = page.getByRole('table', { name: 'Jobs' });
    await expect(table.getByRole('row')).toHaveCount(51);
    // Job number descending, as people read numbers: -54 first, -9 after -10.
    await expect(table.getByRole('row').nth(1)).toContainText(`${jobs.prefix}-54`);
    // Every call asked for one page; the list as a whole never came.
    expect(lists.length).toBeGreaterThan(0);
    expect(lists.every((search) => new URLSearchParams(search).get('limit') === '50'), lists.join('\n')).toBe(true);

    const pages = page.getByRole('navigation', { name: 'Pages' });
    await pages.getByRole('button', { name: 'Page 2', exact: true }).click();
    await expect(page.getByText('Showing 51–55 of 55 jobs')).toBeVisible();
    await expect(table.getByRole('row').nth(5)).toContainText(`${jobs.prefix}-0`);
    expect(lists.some((search) => new URLSearchParams(search).has('cursor'))).toBe(true);

    // A sort by the Job column, ascending: the server's order, back on page 1.
    await page.getByRole('columnheader', { name: 'Job', exact: true }).getByRole('button').click();
    await expect(page.getByText('Showing 1–50 of 55 jobs')).toBeVisible();
    await expect(table.getByRole('row').nth(1)).toContainText(`${jobs.prefix}-0`);
    await expect(table.getByRole('row').nth(11)).toContainText(`${jobs.prefix}-10`);

    // None of them has a ticket, so none is Complete.
    await page.getByRole('radiogroup', { name: 'Status filter' }).getByText('Complete', { exact: true }).click();
    await expect(page.getByText('No jobs match.')).toBeVisible();
    await page.getByRole('radiogroup', { name: 'Status filter' }).getByText('All', { exact: true }).click();
    await expect(page.getByText('Showing 1–50 of 55 jobs')).toBeVisible();

    // No network: the pages read stay on screen, and moving between them needs none.
    await pages.getByRole('button', { name: 'Page 2', exact: true }).click();
    await expect(page.getByText('Showing 51–55 of 55 jobs')).toBeVisible();
    net.cut();
    await pages.getByRole('button', { name: 'Page 1', exact: true }).click();
    await expect(page.getByText('Showing 1–50 of 55 jobs')).toBeVisible();
    await expect(table.getByRole('row').nth(1)).toContainText(`${jobs.prefix}-0`);
    net.restore();
  } finally {
    await jobs.remove();
  }
});
