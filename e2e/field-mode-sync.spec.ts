import { axeViolations } from './axe';
import type { APIRequestContext, Page } from '@playwright/test';
import { API, DEMO_PASSWORD, USERS, expect, login, unique } from './fixtures';
import { test } from './netcut';
import { keptOnDevice, ticketKey } from './kept';

// The offline app: the service worker serves it without a network (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/**
 * Field mode (docs/product/field-mode.md §5–§7, decision 037), with the network cut at a proxy as a road cuts it:
 * one ticket open in two tabs of one phone sends each change exactly once and loses no tap; and
 * a conflict with the office is shown in the numbers the phone shows, with who changed it and when.
 */

/** The server itself, not the cuttable proxy (which is the pages' and `request`'s baseURL). */
const SERVER = `http://localhost:${process.env.E2E_PORT ?? 3210}${API}`;

async function signIn(request: APIRequestContext, email: string) {
  const res = await request.post(`${SERVER}/crew/login`, { data: { email, password: DEMO_PASSWORD } });
  expect(res.ok()).toBeTruthy();
  const body = (await res.json()) as { token: string; user: { id: number } };
  return { id: body.user.id, auth: { Authorization: `Bearer ${body.token}` } };
}

interface ServerTicket {
  id: number;
  version: number;
  tasks: { ticket_task_id: number; task_id: number; code: string; init_qty: number; additional_qty: number; qty_changed_at?: string | null }[];
  notes: { note_text: string }[];
}

async function readTicket(request: APIRequestContext, auth: Record<string, string>, id: number): Promise<ServerTicket> {
  const res = await request.get(`${SERVER}/tickets/${id}`, { headers: auth });
  expect(res.ok()).toBeTruthy();
  return (await res.json()) as ServerTicket;
}

// A journey that fails while cut must still let the fixtures clean up through the proxy.
test.afterEach(({ net }) => net.restore());

/** WCAG 2.x A/AA as e2e/a11y.spec.ts checks it: axe finds nothing on the screen as it is. */
async function axeFindsNothing(page: Page) {
  expect((await axeViolations(page)).map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`)).toEqual([]);
}

const status = (page: Page) => page.getByRole('status').filter({ hasText: /Offline|sync/ });

/** Signs in, and waits until the app is installed (the service worker has fetched the whole app). */
async function signInAndInstall(page: Page) {
  await page.setViewportSize({ width: 390, height: 844 });
  await login(page, USERS.foreman);
  // The first visit of an origin downloads the app for offline use; the ticket is opened after it,
  // not queued behind it on the browser's few connections to the server.
  await page.evaluate(async () => Boolean((await navigator.serviceWorker.ready).active));
}

/** Opens the ticket with signal and waits until it is kept on the device. */
async function openTicket(page: Page, id: number, heading: string) {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/work/${id}`);
  await expect(page.getByRole('heading', { name: heading })).toBeVisible();
  await keptOnDevice(page, [ticketKey(id)]);
}

test('the same ticket open in two tabs offline: every note reaches the server once, every + tap counts, and both tabs show the same queue', async ({ page, context, request, net, seededJob }) => {
  test.setTimeout(120_000);
  const foreman = await signIn(request, USERS.foreman);
  const pole = unique('TT');
  const job = await seededJob([{ pole: { pole_name: pole, line_name: 'L2' }, tasks: [{ code: 'P40-2', init_qty: 2 }] }], { foreman_id: foreman.id });
  const admin = { Authorization: `Bearer ${job.token}` };
  const ticketId = ((await (await request.get(`${SERVER}/jobs/${job.id}`, { headers: admin })).json()) as { tickets: { id: number }[] }).tickets[0].id;
  const heading = `Pole ${pole} · Line L2`;

  await signInAndInstall(page);
  await openTicket(page, ticketId, heading);
  const tab2 = await context.newPage();
  await openTicket(tab2, ticketId, heading);

  net.cut();
  // Bid 2; three taps on + across the two tabs, and a note in each.
  await page.getByRole('button', { name: 'One more P40-2' }).click();
  await page.getByRole('textbox', { name: 'New note' }).fill('Tab one: guy wire loose');
  await page.getByRole('button', { name: 'Add note' }).click();
  await tab2.getByRole('button', { name: 'One more P40-2' }).click();
  await tab2.getByRole('textbox', { name: 'New note' }).fill('Tab two: crossarm cracked');
  await tab2.getByRole('button', { name: 'Add note' }).click();
  await page.getByRole('button', { name: 'One more P40-2' }).click();

  // Both tabs show every change of both, and the same count.
  for (const tab of [page, tab2]) {
    await expect(tab.getByText('Actual quantity of P40-2: 5')).toBeVisible();
    await expect(tab.getByText('Tab one: guy wire loose')).toBeVisible();
    await expect(tab.getByText('Tab two: crossarm cracked')).toBeVisible();
    await expect(status(tab)).toHaveText('Offline · 5 changes waiting to sync', { timeout: 30_000 });
  }
  expect((await readTicket(request, admin, ticketId)).notes).toHaveLength(0);

  net.restore();
  for (const tab of [page, tab2]) await expect(tab.getByRole('status').filter({ hasText: 'All changes synced' })).toBeVisible({ timeout: 45_000 });

  const stored = await readTicket(request, admin, ticketId);
  expect(stored.notes.map((n) => n.note_text).sort()).toEqual(['Tab one: guy wire loose', 'Tab two: crossarm cracked']);
  expect(stored.tasks.map((t) => [t.code, t.init_qty + t.additional_qty])).toEqual([['P40-2', 5]]);
  // Both tabs show what the server holds.
  for (const tab of [page, tab2]) await expect(tab.getByText('Actual quantity of P40-2: 5')).toBeVisible();
});

test('the office changes a quantity while the phone is cut off: the conflict shows the actual quantities, who changed it and when, and the task is marked until resolved', async ({ page, request, net, seededJob }) => {
  test.setTimeout(120_000);
  const foreman = await signIn(request, USERS.foreman);
  const office = await signIn(request, USERS.office);
  const pole = unique('CQ');
  // Bid 1: the phone shows the actual quantity (bid + change), never the change alone.
  const job = await seededJob([{ pole: { pole_name: pole, line_name: 'L4' }, tasks: [{ code: 'P40-2', init_qty: 1 }, { code: 'XA8', init_qty: 1 }] }], { foreman_id: foreman.id });
  const admin = { Authorization: `Bearer ${job.token}` };
  const ticketId = ((await (await request.get(`${SERVER}/jobs/${job.id}`, { headers: admin })).json()) as { tickets: { id: number }[] }).tickets[0].id;
  const heading = `Pole ${pole} · Line L4`;

  await signInAndInstall(page);
  await openTicket(page, ticketId, heading);

  net.cut();
  // Mine: P40-2 from 1 to 3.
  await page.getByRole('button', { name: 'One more P40-2' }).click();
  await page.getByRole('button', { name: 'One more P40-2' }).click();
  await expect(page.getByText('Actual quantity of P40-2: 3')).toBeVisible();
  await expect(status(page)).toContainText('waiting to sync', { timeout: 30_000 });

  // The office, meanwhile: P40-2 from 1 to 4.
  const t = await readTicket(request, office.auth, ticketId);
  const saved = await request.put(`${SERVER}/tickets/`, {
    headers: office.auth,
    data: { ticket: { id: ticketId, version: t.version, tasks: t.tasks.map((x) => ({ ticket_task_id: x.ticket_task_id, task_id: x.task_id, init_qty: x.init_qty, additional_qty: x.code === 'P40-2' ? 3 : x.additional_qty })) } },
  });
  expect(saved.ok(), await saved.text()).toBeTruthy();
  const changedAt = (await saved.json()).ticket.tasks.find((x: { code: string }) => x.code === 'P40-2').qty_changed_at as string;
  expect(changedAt).toBeTruthy();
  const when = await page.evaluate((iso) => new Date(iso).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }), changedAt);

  net.restore();
  await expect(page.getByRole('status')).toContainText('1 needs you', { timeout: 45_000 });
  // On the ticket, the task says it is in conflict, until the crew chooses.
  const task = page.getByRole('group', { name: 'P40-2' });
  await expect(task.getByText('Changed by Olivia Office: choose which quantity to keep')).toBeVisible();
  await axeFindsNothing(page);
  await task.getByRole('button', { name: 'Choose' }).click();

  const dialog = page.getByRole('dialog', { name: /changed by someone else/ });
  await expect(dialog.getByRole('row')).toHaveCount(2);
  const row = dialog.getByRole('row', { name: /P40-2/ });
  await expect(row).toContainText(`Olivia Office · ${when}`);
  await expect(row.getByRole('radio', { name: 'Quantity of P40-2: keep theirs (4)' })).toBeVisible();
  await expect(row.getByRole('radio', { name: 'Quantity of P40-2: keep mine (3)' })).toBeVisible();
  await axeFindsNothing(page);
  await row.getByRole('radio', { name: 'Quantity of P40-2: keep mine (3)' }).check();
  await dialog.getByRole('button', { name: 'Keep my choices' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'All changes synced' })).toBeVisible({ timeout: 30_000 });
  await expect(task.getByText(/Changed by Olivia Office/)).toBeHidden();
  await expect(page.getByText('Actual quantity of P40-2: 3')).toBeVisible();

  const stored = await readTicket(request, admin, ticketId);
  expect(Object.fromEntries(stored.tasks.map((x) => [x.code, x.init_qty + x.additional_qty]))).toEqual({ 'P40-2': 3, XA8: 1 });
});
