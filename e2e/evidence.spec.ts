import { axeViolations } from './axe';
import type { Page } from '@playwright/test';
import { API, DEMO_PASSWORD, USERS, createJob, expect, login, unique } from './fixtures';
import { test } from './netcut';
import { openJob, row, ticketWindow } from './ticketJobs';
import { keptOnDevice, ticketKey } from './kept';

// The offline app: the service worker serves it without a network (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/**
 * Evidence (docs/product/records.md §6–§9, decision 047): a crew marks a ticket complete on a phone
 * cut off at the network, with the phone's position; once synced the office sees who, when and
 * where, and the invoice preview leaves the ticket out (no photo at the pole) with "Leave out
 * tickets without evidence". The job is kept afterwards when invoiced (an invoiced job stays).
 */

/** The server itself, not the cuttable proxy. */
const SERVER = `http://localhost:${process.env.E2E_PORT ?? 3210}${API}`;
const POLE = { latitude: 42.1001, longitude: -72.6002 };

test.afterEach(({ net }) => net.restore());

async function axeFindsNothing(page: Page) {
  expect((await axeViolations(page)).map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`)).toEqual([]);
}

test('a crew marks complete offline with its position; the office sees who, when and where; the invoice leaves the unevidenced ticket out', async ({ page, context, request, net, browser }) => {
  test.setTimeout(180_000);
  const foremanLogin = await request.post(`${SERVER}/crew/login`, { data: { email: USERS.foreman, password: DEMO_PASSWORD } });
  const foremanId = ((await foremanLogin.json()) as { user: { id: number } }).user.id;
  const pole = unique('EV');
  const job = await createJob(request, [{ pole: { pole_name: pole, line_name: 'L1' }, geo_lat: 42.1, geo_lon: -72.6, tasks: [{ code: 'P40-2', init_qty: 1 }] }], { foreman_id: foremanId });
  const admin = { Authorization: `Bearer ${job.token}` };
  const ticketId = ((await (await request.get(`${SERVER}/jobs/${job.id}`, { headers: admin })).json()) as { tickets: { id: number }[] }).tickets[0].id;

  // The phone: 390 × 844, location allowed, standing ~12 m from the pole.
  await context.grantPermissions(['geolocation']);
  await context.setGeolocation({ ...POLE, accuracy: 12 });
  await page.setViewportSize({ width: 390, height: 844 });
  await login(page, USERS.foreman);
  await page.evaluate(async () => Boolean((await navigator.serviceWorker.ready).active));
  await page.goto(`/work/${ticketId}`);
  await expect(page.getByRole('heading', { name: `Pole ${pole} · Line L1` })).toBeVisible();
  await keptOnDevice(page, [ticketKey(ticketId)]);

  net.cut();
  await page.getByRole('button', { name: 'Mark complete' }).click();
  await expect(page.getByRole('status').filter({ hasText: /waiting to sync/ })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Reopen' })).toBeVisible();
  // Moved on before the signal came back: the record keeps where the tap was.
  await context.setGeolocation({ latitude: 42.2, longitude: -72.7, accuracy: 30 });
  net.restore();
  await expect(page.getByRole('status').filter({ hasText: 'All changes synced' })).toBeVisible({ timeout: 45_000 });
  await expect(page.getByTestId('completion-record')).toContainText('by Frank Foreman, 12 m accuracy');
  await axeFindsNothing(page);

  const stored = (await (await request.get(`${SERVER}/tickets/${ticketId}`, { headers: admin })).json()) as Record<string, unknown>;
  expect(stored).toMatchObject({ status: 'Complete', completed_by_name: 'Frank Foreman', completed_lat: POLE.latitude, completed_lon: POLE.longitude, completed_accuracy_m: 12 });

  // The office: the ticket window shows the record; the table marks the ticket; the invoice leaves it out.
  const office = await browser.newContext({ baseURL: net.baseURL });
  const desk = await office.newPage();
  await login(desk, USERS.office);
  await openJob(desk, job.id);
  await expect(row(desk, pole).getByTestId('evidence-missing')).toBeVisible();
  await row(desk, pole).click();
  // The window's code loads on first open: a loaded machine takes a while.
  await expect(ticketWindow(desk)).toBeVisible({ timeout: 30_000 });
  await expect(ticketWindow(desk).getByTestId('completion-record')).toContainText('by Frank Foreman, 12 m accuracy');
  await expect(ticketWindow(desk).getByTestId('completion-record').getByRole('link')).toContainText('42.100100, -72.600200');
  await desk.keyboard.press('Escape');

  const invoices = desk.getByRole('region', { name: 'Invoices' });
  await invoices.getByRole('button', { name: 'Create invoice' }).click();
  const modal = desk.getByRole('dialog', { name: 'Create invoice' });
  await modal.getByRole('button', { name: 'Preview' }).click();
  await expect(modal.getByTestId(`evidence-${ticketId}`)).toContainText('Missing');
  await expect(modal.getByTestId(`evidence-${ticketId}`)).toContainText('No photo at the pole');
  await axeFindsNothing(desk);
  await modal.getByRole('checkbox', { name: 'Leave out tickets without evidence' }).check();
  await modal.getByRole('button', { name: 'Preview' }).click();
  // The only ticket lacks evidence: nothing is left to invoice, and nothing was.
  await expect(modal.getByRole('alert')).toContainText('None of these tickets has the photos required as evidence');
  await office.close();
  await request.delete(`${SERVER}/jobs/${job.id}`, { headers: admin });
});
