import type { APIRequestContext, Page } from '@playwright/test';
import { isoToUs } from '../src/shared/dates';
import { companyToday } from '../src/shared/dig-safe';
import { API, DEMO_PASSWORD, USERS, expect, login, unique } from './fixtures';
import { scan } from './axe';
import { test } from './netcut';
import { ticketWindow } from './ticketJobs';
import { MY_WORK, keptOnDevice, ticketKey } from './kept';

// The offline app: the service worker serves it without a network (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/**
 * Clear to dig and the papers' expiry (docs/product/records.md §5, decision 045): a crew sees "Not
 * clear to dig" and why on My Work and the ticket from the phone's copy with the network cut at a
 * proxy, and marking such a ticket complete asks first; the office filters its table on it.
 */

/** The server itself, not the cuttable proxy. */
const SERVER = `http://localhost:${process.env.E2E_PORT ?? 3210}${API}`;

/** The company's calendar day plus `n` days. */
const day = (n: number) => {
  const [y, m, d] = companyToday().split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
};

async function signIn(request: APIRequestContext, email: string) {
  const res = await request.post(`${SERVER}/crew/login`, { data: { email, password: DEMO_PASSWORD } });
  expect(res.ok()).toBeTruthy();
  const body = (await res.json()) as { token: string; user: { id: number } };
  return { id: body.user.id, auth: { Authorization: `Bearer ${body.token}` } };
}

interface Row {
  id: number;
  pole_name: string;
  version: number;
  status: string;
}

/** The job's tickets by pole name. */
async function ticketsOf(request: APIRequestContext, auth: Record<string, string>, jobId: number): Promise<Map<string, Row>> {
  const body = (await (await request.get(`${SERVER}/jobs/${jobId}`, { headers: auth })).json()) as { tickets: Row[] };
  return new Map(body.tickets.map((t) => [t.pole_name, t]));
}

async function saveTicket(request: APIRequestContext, auth: Record<string, string>, t: Row, fields: Record<string, unknown>) {
  const res = await request.put(`${SERVER}/tickets/`, { headers: auth, data: { ticket: { id: t.id, version: t.version, ...fields } } });
  expect(res.ok(), await res.text()).toBeTruthy();
}

/**
 * A job of the foreman's with three poles: one whose dig safe expired three days ago, one clear
 * to dig with a permit expiring in 3 days, one that needs no dig safe.
 */
async function digJob(request: APIRequestContext, seededJob: (t: { pole: { pole_name: string; line_name: string } }[], f?: Record<string, unknown>) => Promise<{ id: number; token: string }>) {
  const foreman = await signIn(request, USERS.foreman);
  const [expired, clear, none] = [unique('DX'), unique('DC'), unique('DN')];
  const job = await seededJob(
    [expired, clear, none].map((p) => ({ pole: { pole_name: p, line_name: 'L1' } })),
    { foreman_id: foreman.id },
  );
  const admin = { Authorization: `Bearer ${job.token}` };
  const rows = await ticketsOf(request, admin, job.id);
  await saveTicket(request, admin, rows.get(expired)!, { dig_safe_required: 1, dig_safe_number: '20261120-001', dig_safe_expires_on: day(-3), due_date: day(10) });
  await saveTicket(request, admin, rows.get(clear)!, {
    dig_safe_required: 1,
    dig_safe_number: '20261120-002',
    dig_safe_expires_on: day(30),
    due_date: day(10),
    permits: [{ number: 'ROW-7', valid_from: day(-5), expires_on: day(3) }],
  });
  return { job, admin, rows: await ticketsOf(request, admin, job.id), expired, clear, none };
}

test.afterEach(({ net }) => net.restore());

const card = (page: Page, pole: string) => page.locator('[data-ticket-id]').filter({ hasText: `Pole ${pole}` });

test('a crew sees "Not clear to dig" and why on My Work offline, and marking it complete asks first', async ({ page, request, net, seededJob }) => {
  test.setTimeout(120_000);
  const { admin, rows, expired, clear } = await digJob(request, seededJob);
  const reason = `Not clear to dig: Dig safe expired ${isoToUs(day(-3))}`;

  await page.setViewportSize({ width: 390, height: 844 });
  await login(page, USERS.foreman);
  await page.evaluate(async () => Boolean((await navigator.serviceWorker.ready).active));
  await page.goto('/work');
  await expect(card(page, expired)).toContainText(reason);
  // Open the ticket once with signal: it is kept on the phone.
  await card(page, expired).click();
  await expect(page.getByRole('heading', { name: `Pole ${expired} · Line L1` })).toBeVisible();
  await keptOnDevice(page, [MY_WORK, ticketKey(rows.get(expired)!.id)]);

  net.cut();
  await page.goto('/work');
  await expect(card(page, expired)).toContainText(reason);
  await expect(card(page, expired)).toContainText('Dig safe expired');
  await expect(card(page, clear)).not.toContainText('Not clear to dig');
  await expect(card(page, clear).getByText('Permits: Expires in 3 days')).toBeVisible();
  const found: string[] = [];
  await scan(page, 'My Work offline at 390 px', found);

  await card(page, expired).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Not clear to dig' })).toContainText(`Dig safe expired ${isoToUs(day(-3))}`);
  await scan(page, 'the phone ticket view offline at 390 px', found);
  // Cancel leaves it Pending; confirming marks it complete (queued on the phone).
  await page.getByRole('button', { name: 'Mark complete' }).click();
  const ask = page.getByRole('dialog', { name: 'Not clear to dig' });
  await expect(ask).toContainText(`Dig safe expired ${isoToUs(day(-3))}`);
  await scan(page, 'the confirm at 390 px', found);
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();
  await expect(page.getByRole('button', { name: 'Mark complete' })).toBeVisible();
  await page.getByRole('button', { name: 'Mark complete' }).click();
  await page.getByRole('dialog', { name: 'Not clear to dig' }).getByRole('button', { name: 'Mark complete anyway' }).click();
  await expect(page.getByRole('button', { name: 'Reopen' })).toBeVisible();
  expect(found).toEqual([]);

  net.restore();
  await expect(page.getByRole('status').filter({ hasText: 'All changes synced' })).toBeVisible({ timeout: 45_000 });
  const stored = (await (await request.get(`${SERVER}/tickets/${rows.get(expired)!.id}`, { headers: admin })).json()) as { status: string };
  expect(stored.status).toBe('Complete');
});

test('the office filters the table on "Not clear to dig" and "Permits: expiring / expired"; Mark Complete in the window asks first', async ({ page, request, seededJob }) => {
  test.setTimeout(90_000);
  const { job, rows, expired, clear, none } = await digJob(request, seededJob);
  await page.setViewportSize({ width: 1400, height: 900 });
  await login(page, USERS.office);
  await page.goto(`/job?id=${job.id}`);
  const row = (pole: string) => page.locator('tr[data-ticket-id]').filter({ hasText: pole });
  await expect(row(none)).toBeVisible();
  await expect(row(expired).getByTestId('not-clear-badge')).toHaveAttribute('title', `Dig safe expired ${isoToUs(day(-3))}`);

  await page.getByRole('checkbox', { name: 'Not clear to dig' }).check();
  await expect(page.locator('tr[data-ticket-id]')).toHaveCount(1);
  await expect(row(expired)).toBeVisible();
  await page.getByRole('checkbox', { name: 'Not clear to dig' }).uncheck();

  await page.getByRole('checkbox', { name: 'Permits: expiring / expired' }).check();
  // The expired dig safe and the permit expiring in 3 days; not the ticket with no papers.
  await expect(page.locator('tr[data-ticket-id]')).toHaveCount(2);
  await expect(row(clear)).toContainText('Permits: Expires in 3 days');
  await expect(row(expired)).toContainText('Permits: Expired');
  await expect(row(none)).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'Permits: expiring / expired' }).uncheck();

  // The ticket window says why, shows the dates, and asks before Mark Complete.
  await page.goto(`/job?id=${job.id}&ticket=${rows.get(expired)!.id}`);
  const win = ticketWindow(page);
  await expect(win.getByRole('alert').filter({ hasText: 'Not clear to dig' })).toContainText(`Dig safe expired ${isoToUs(day(-3))}`);
  await expect(win.getByRole('textbox', { name: 'Dig safe number' })).toHaveValue('20261120-001');
  await win.getByRole('button', { name: 'Mark Complete' }).click();
  const ask = page.getByRole('dialog', { name: 'Not clear to dig' });
  await expect(ask).toContainText('Mark it complete anyway?');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(win.getByRole('button', { name: 'Mark Complete' })).toBeVisible();
});
