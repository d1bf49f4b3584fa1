import sharp from 'sharp';
import type { APIRequestContext, Page } from '@playwright/test';
import { API, DEMO_PASSWORD, USERS, expect, login, test, unique } from './fixtures';
import { MY_WORK, keptOnDevice, ticketKey } from './kept';

// The offline app: the service worker serves it without a network (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/**
 * Field mode (docs/product/field-mode.md §1): a foreman opens My Work once with signal, then works a ticket with
 * none — reload, quantities, a note, a photo with GPS, Mark complete, the page closed and opened
 * again — and when the network returns every change reaches the server exactly once. Then the
 * office edits a ticket while the crew is offline: the crew chooses, field by field.
 */

async function signIn(request: APIRequestContext, email: string) {
  const res = await request.post(`${API}/crew/login`, { data: { email, password: DEMO_PASSWORD } });
  expect(res.ok()).toBeTruthy();
  const body = (await res.json()) as { token: string; user: { id: number } };
  return { id: body.user.id, auth: { Authorization: `Bearer ${body.token}` } };
}

interface ServerTicket {
  id: number;
  version: number;
  status: string;
  tasks: { ticket_task_id: number; task_id: number; code: string; init_qty: number; additional_qty: number }[];
  notes: { note_text: string }[];
  images: { id: number; taken_at?: string | null; geo_lat?: number | null; geo_lon?: number | null }[];
}

async function readTicket(request: APIRequestContext, auth: Record<string, string>, id: number): Promise<ServerTicket> {
  const res = await request.get(`${API}/tickets/${id}`, { headers: auth });
  expect(res.ok()).toBeTruthy();
  const body = (await res.json()) as ServerTicket | { ticket: ServerTicket };
  return 'ticket' in body ? body.ticket : body;
}

/** A 12-megapixel camera photo with the time and place a phone writes into EXIF. */
function cameraPhoto(): Promise<Buffer> {
  return sharp({ create: { width: 4000, height: 3000, channels: 3, background: { r: 90, g: 120, b: 160 } } })
    .jpeg({ quality: 92 })
    .withExif({
      IFD0: { Make: 'Linecrew test' },
      IFD2: { DateTimeOriginal: '2026:11:20 09:15:30' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '42/1 21/1 3600/100', GPSLongitudeRef: 'W', GPSLongitude: '71/1 3/1 1800/100' },
    })
    .toBuffer();
}

/** The service worker has precached the app: from now on the app opens without network. */
async function appInstalled(page: Page) {
  await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    return Boolean(reg.active);
  });
}

const status = (page: Page) => page.getByRole('status').filter({ hasText: /Offline|sync/ });

test('a crew works a ticket offline; every change reaches the server exactly once when the network returns', async ({ page, context, request, seededJob }) => {
  test.setTimeout(120_000);
  const foreman = await signIn(request, USERS.foreman);
  const pole = unique('FM');
  // The foreman's job: its tickets are his work.
  const job = await seededJob(
    [
      { pole: { pole_name: pole, line_name: 'L7' }, street_address: '12 Field Rd', tasks: [{ code: 'P40-2', init_qty: 2 }] },
      { pole: { pole_name: `${pole}-2`, line_name: 'L7' }, street_address: '14 Field Rd' },
    ],
    { foreman_id: foreman.id },
  );
  const admin = { Authorization: `Bearer ${job.token}` };
  const jobBody = (await (await request.get(`${API}/jobs/${job.id}`, { headers: admin })).json()) as { tickets: { id: number; pole_name: string }[] };
  const ticketId = jobBody.tickets.find((t) => t.pole_name === pole)!.id;

  await page.setViewportSize({ width: 390, height: 844 });
  await login(page, USERS.foreman);
  await page.goto('/work');
  await page.getByRole('searchbox', { name: 'Search my tickets' }).fill(job.number);
  await expect(page.getByRole('region', { name: `Job ${job.number}` })).toBeVisible();
  await page.getByRole('button', { name: new RegExp(`Pole ${pole} · Line L7`) }).click();
  await expect(page.getByRole('heading', { name: `Pole ${pole} · Line L7` })).toBeVisible();
  await appInstalled(page);
  await keptOnDevice(page, [MY_WORK, ticketKey(ticketId)]);

  // No signal. The app and the ticket still open.
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: `Pole ${pole} · Line L7` })).toBeVisible();
  await expect(page.getByTestId('copy-note')).toContainText('Offline copy from');
  await expect(status(page)).toHaveText('Offline');

  await page.getByRole('button', { name: 'One more P40-2' }).click();
  await expect(page.getByText('Actual quantity of P40-2: 3')).toBeVisible();
  await page.getByRole('textbox', { name: 'New note' }).fill('Guy wire loose, tightened');
  await page.getByRole('button', { name: 'Add note' }).click();
  await page.locator('input[type=file]').setInputFiles({ name: 'IMG_0001.jpg', mimeType: 'image/jpeg', buffer: await cameraPhoto() });
  await expect(page.getByRole('img', { name: /waiting to sync/ })).toBeVisible();
  await page.getByRole('button', { name: 'Mark complete' }).click();
  await expect(page.getByRole('button', { name: 'Reopen' })).toBeVisible();
  await expect(status(page)).toHaveText('Offline · 4 changes waiting to sync');

  // The page is closed and opened again, still offline: the queue is intact.
  await page.close();
  const again = await context.newPage();
  await again.setViewportSize({ width: 390, height: 844 });
  await again.goto(`/work/${ticketId}`);
  await expect(status(again)).toHaveText('Offline · 4 changes waiting to sync');
  await expect(again.getByText('Guy wire loose, tightened')).toBeVisible();
  await expect(again.getByText('Actual quantity of P40-2: 3')).toBeVisible();

  // Nothing reached the server yet.
  expect((await readTicket(request, admin, ticketId)).notes).toHaveLength(0);

  await context.setOffline(false);
  await expect(again.getByRole('status').filter({ hasText: 'All changes synced' })).toBeVisible({ timeout: 30_000 });

  const stored = await readTicket(request, admin, ticketId);
  expect(stored.status).toBe('Complete');
  expect(stored.tasks.map((t) => [t.code, t.init_qty + t.additional_qty])).toEqual([['P40-2', 3]]);
  expect(stored.notes.map((n) => n.note_text)).toEqual(['Guy wire loose, tightened']);
  expect(stored.images).toHaveLength(1);
  expect(stored.images[0].taken_at).toBe('2026-11-20T09:15:30.000Z');
  expect(stored.images[0].geo_lat).toBeCloseTo(42.36, 5);
  expect(stored.images[0].geo_lon).toBeCloseTo(-71.055, 5);
});

test('the office changes a ticket while the crew is offline: the crew keeps theirs or mine, field by field', async ({ page, context, request, seededJob }) => {
  test.setTimeout(120_000);
  const foreman = await signIn(request, USERS.foreman);
  const pole = unique('CF');
  const job = await seededJob([{ pole: { pole_name: pole, line_name: 'L9' }, tasks: [{ code: 'P40-2', init_qty: 2 }, { code: 'XA8', init_qty: 1 }] }], { foreman_id: foreman.id });
  const admin = { Authorization: `Bearer ${job.token}` };
  const jobBody = (await (await request.get(`${API}/jobs/${job.id}`, { headers: admin })).json()) as { tickets: { id: number }[] };
  const ticketId = jobBody.tickets[0].id;

  await page.setViewportSize({ width: 390, height: 844 });
  await login(page, USERS.foreman);
  await page.goto(`/work/${ticketId}`);
  await expect(page.getByRole('heading', { name: `Pole ${pole} · Line L9` })).toBeVisible();
  await appInstalled(page);

  await context.setOffline(true);
  // Mine: P40-2 2 → 4, XA8 1 → 2.
  await page.getByRole('button', { name: 'One more P40-2' }).click();
  await page.getByRole('button', { name: 'One more P40-2' }).click();
  await page.getByRole('button', { name: 'One more XA8' }).click();
  await expect(status(page)).toHaveText('Offline · 1 change waiting to sync');

  // Theirs, meanwhile: P40-2 2 → 5 (XA8 untouched).
  const t = await readTicket(request, admin, ticketId);
  const office = await request.put(`${API}/tickets/`, {
    headers: admin,
    data: { ticket: { id: ticketId, version: t.version, tasks: t.tasks.map((x) => ({ ticket_task_id: x.ticket_task_id, task_id: x.task_id, init_qty: x.init_qty, additional_qty: x.code === 'P40-2' ? 3 : x.additional_qty })) } },
  });
  expect(office.ok(), await office.text()).toBeTruthy();

  await context.setOffline(false);
  await expect(page.getByRole('status')).toContainText('1 needs you', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByText('Changed by someone else')).toBeVisible();
  await page.getByRole('button', { name: 'Resolve' }).click();
  const dialog = page.getByRole('dialog', { name: /changed by someone else/ });
  // Only P40-2 is asked about: XA8 was mine alone.
  await expect(dialog.getByRole('row')).toHaveCount(2);
  await dialog.getByRole('radio', { name: /Quantity of P40-2: keep mine/ }).check();
  await dialog.getByRole('button', { name: 'Keep my choices' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'All changes synced' })).toBeVisible({ timeout: 30_000 });

  const stored = await readTicket(request, admin, ticketId);
  expect(Object.fromEntries(stored.tasks.map((x) => [x.code, x.init_qty + x.additional_qty]))).toEqual({ 'P40-2': 4, XA8: 2 });
});

test('a ticket deleted while the crew was offline: its queued note is kept and can be saved to the phone; the rest syncs', async ({ page, context, request, seededJob }) => {
  test.setTimeout(120_000);
  const foreman = await signIn(request, USERS.foreman);
  const pole = unique('GD');
  const job = await seededJob(
    [
      { pole: { pole_name: pole, line_name: 'L3' }, street_address: '1 Gone St' },
      { pole: { pole_name: `${pole}-2`, line_name: 'L3' }, street_address: '2 Kept St' },
    ],
    { foreman_id: foreman.id },
  );
  const admin = { Authorization: `Bearer ${job.token}` };
  const rows = ((await (await request.get(`${API}/jobs/${job.id}`, { headers: admin })).json()) as { tickets: { id: number; pole_name: string }[] }).tickets;
  const gone = rows.find((t) => t.pole_name === pole)!.id;
  const kept = rows.find((t) => t.pole_name === `${pole}-2`)!.id;

  await login(page, USERS.foreman);
  for (const id of [gone, kept]) {
    await page.goto(`/work/${id}`);
    await expect(page.getByRole('heading', { name: 'Tasks' })).toBeVisible();
  }
  await appInstalled(page);
  await page.goto('/work');
  // My Work must have arrived before the network is cut: the list is read once with signal (the
  // login's own read may have been cut short by the next page load). An 800 ms wait was not
  // always enough on a loaded CI machine, and the page then said truthfully that My Work was not
  // on the device.
  for (const name of [pole, `${pole}-2`]) await expect(page.getByRole('button', { name: new RegExp(`^Pole ${name} ·`) })).toBeVisible();
  // And the two tickets are on the phone: My Work fetches its tickets ahead. (A copy written as a
  // page is left by a full page load may not finish before the page is gone; in the app, moving
  // between tickets is not a page load.)
  await keptOnDevice(page, [MY_WORK, ticketKey(gone), ticketKey(kept)]);

  // Offline, the crew moves by taps inside the app, as on a phone. (A page load made without a
  // network can send its first requests before Chromium applies the test's offline emulation to
  // the new document: a note then reached the server before the office deleted its ticket.)
  await context.setOffline(true);
  for (const [name, text] of [
    [pole, 'Crossarm cracked'],
    [`${pole}-2`, 'Meter moved'],
  ] as const) {
    await page.getByRole('searchbox', { name: 'Search my tickets' }).fill(name);
    await page.getByRole('button', { name: new RegExp(`^Pole ${name} ·`) }).click();
    await page.getByRole('textbox', { name: 'New note' }).fill(text);
    await page.getByRole('button', { name: 'Add note' }).click();
    await expect(page.getByRole('textbox', { name: 'New note' })).toHaveValue('');
    await page.getByRole('link', { name: 'My Work' }).first().click();
  }
  await expect(status(page)).toHaveText('Offline · 2 changes waiting to sync');

  // Meanwhile the office deletes the first ticket.
  expect((await request.delete(`${API}/tickets/${gone}`, { headers: admin })).ok()).toBeTruthy();

  await context.setOffline(false);
  // The deleted ticket's note will not sync: it needs the crew, it is not "waiting".
  await expect(page.getByRole('status')).toHaveText('1 change needs you', { timeout: 30_000 });
  expect((await readTicket(request, admin, kept)).notes.map((n) => n.note_text)).toEqual(['Meter moved']);

  await page.getByRole('button', { name: 'Review' }).click();
  const card = page.getByRole('dialog', { name: 'Changes waiting to sync' }).locator('.mantine-Card-root', { hasText: 'Crossarm cracked' });
  await expect(card.getByText('Ticket deleted')).toBeVisible();
  const download = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Save to this device' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`linecrew-notes-${gone}.txt`);
  const { readFileSync } = await import('node:fs');
  expect(readFileSync((await file.path())!, 'utf8')).toContain('Crossarm cracked');
});

test('the app is installable: a manifest starting at My Work, standalone, with 192, 512 and maskable PNG icons, and a service worker at /sw.js for the whole site that API calls bypass', async ({ page, request }) => {
  const manifest = (await (await request.get('/manifest.webmanifest')).json()) as { name: string; start_url: string; display: string; scope: string; icons: { src: string; sizes: string; purpose?: string }[] };
  expect(manifest).toMatchObject({ name: 'Linecrew', start_url: '/work', display: 'standalone', scope: '/' });
  expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose ?? 'any'}`).sort()).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
  for (const icon of manifest.icons) {
    const res = await request.get(icon.src);
    expect(res.headers()['content-type']).toBe('image/png');
    const size = Number(icon.sizes.split('x')[0]);
    const png = await res.body();
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size, size]);
  }
  await page.goto('/login');
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(new URL(scope).pathname).toBe('/');
  expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL)).toMatch(/\/sw\.js$/);

  // Once the worker controls the page, API calls bypass it (its static routes go to the network):
  // the page's own network, and its offline, is the only way a change leaves the phone.
  await page.reload();
  await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller));
  const routed = await page.evaluate(async () => {
    const url = new URL('/api/v1/health?routed', location.href).href;
    await fetch(url);
    await new Promise((r) => setTimeout(r, 200));
    const [entry] = performance.getEntriesByName(url) as (PerformanceResourceTiming & { workerMatchedSourceType?: string })[];
    return entry?.workerMatchedSourceType;
  });
  expect(routed).toBe('network');
});

test("the office's ticket window without a connection: the ticket's fields and notes wait on the device and sync once", async ({ page, context, request, seededJob }) => {
  test.setTimeout(120_000);
  const pole = unique('TW');
  const job = await seededJob([{ pole: { pole_name: pole, line_name: 'L5' }, street_address: '5 Old Rd' }]);
  const admin = { Authorization: `Bearer ${job.token}` };
  const id = ((await (await request.get(`${API}/jobs/${job.id}`, { headers: admin })).json()) as { tickets: { id: number }[] }).tickets[0].id;

  await login(page, USERS.office);
  await page.goto(`/job?id=${job.id}&ticket=${id}`);
  const win = page.getByRole('dialog');
  await win.getByRole('tab', { name: /Info/ }).click();
  await expect(win.getByRole('textbox', { name: 'Address' })).toHaveValue('5 Old Rd');
  await appInstalled(page);

  await context.setOffline(true);
  await win.getByRole('textbox', { name: 'Address' }).fill('7 New Rd');
  await win.getByLabel('New note').fill('Customer asked to call ahead');
  await win.getByRole('button', { name: 'Add Note' }).click();
  await win.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved on this device. It will sync when the connection is back.')).toBeVisible();
  await expect(win).toBeHidden();
  await expect(status(page)).toHaveText('Offline · 2 changes waiting to sync');

  await context.setOffline(false);
  await expect(page.getByRole('status').filter({ hasText: 'All changes synced' })).toBeVisible({ timeout: 30_000 });
  const stored = (await (await request.get(`${API}/tickets/${id}`, { headers: admin })).json()) as { street_address: string; notes: { note_text: string }[] };
  expect(stored.street_address).toBe('7 New Rd');
  expect(stored.notes.map((n) => n.note_text)).toEqual(['Customer asked to call ahead']);
});
