import { readFileSync } from 'node:fs';
import { axeViolations } from './axe';
import sharp from 'sharp';
import type { APIRequestContext, Download, Locator, Page } from '@playwright/test';
import { API, DEMO_PASSWORD, USERS, expect, login, unique } from './fixtures';
import { test } from './netcut';
import { MY_WORK, keptOnDevice, ticketKey } from './kept';

// The offline app: the service worker serves it without a network (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/**
 * Field mode (docs/product/field-mode.md §8, decision 038): photos at the 10-per-ticket limit, a ticket deleted while
 * the crew held changes for it, and photos without EXIF. A foreman on a phone (390 × 844) works
 * with the network cut at a proxy (e2e/netcut.ts), as a road without signal cuts it; what the
 * server stored is read through the API as the admin.
 */

test.use({ viewport: { width: 390, height: 844 } });
// The signal comes back before the seeded jobs are deleted through the page's (proxied) baseURL.
test.afterEach(({ net }) => net.restore());

/**
 * The server itself, not the proxy: `request` follows the page's baseURL (the proxy), and the
 * office works on while the crew's network is cut.
 */
const SERVER = `http://localhost:${Number(process.env.E2E_PORT ?? 3210)}`;
const OFFICE = `${SERVER}${API}`;

async function signIn(request: APIRequestContext, email: string) {
  const res = await request.post(`${OFFICE}/crew/login`, { data: { email, password: DEMO_PASSWORD } });
  expect(res.ok()).toBeTruthy();
  const body = (await res.json()) as { token: string; user: { id: number } };
  return { id: body.user.id, auth: { Authorization: `Bearer ${body.token}` } };
}

interface StoredImage {
  id: number;
  url: string;
  taken_at: string | null;
  geo_lat: number | null;
  geo_lon: number | null;
}

async function images(request: APIRequestContext, auth: Record<string, string>, ticketId: number): Promise<StoredImage[]> {
  const res = await request.get(`${OFFICE}/tickets/${ticketId}`, { headers: auth });
  expect(res.ok(), await res.text()).toBeTruthy();
  return ((await res.json()) as { images: StoredImage[] }).images;
}

/** A small JPEG; with `takenAt` ('YYYY:MM:DD hh:mm:ss') it carries that EXIF time, and GPS when `gps` is given. */
function jpeg(colour: number, exif?: { takenAt: string; gps?: { lat: string; lon: string } }): Promise<Buffer> {
  const img = sharp({ create: { width: 64, height: 48, channels: 3, background: { r: colour, g: 90, b: 160 } } }).jpeg({ quality: 80 });
  if (!exif) return img.toBuffer();
  return img
    .withExif({
      IFD0: { Make: 'Linecrew test' },
      IFD2: { DateTimeOriginal: exif.takenAt },
      ...(exif.gps ? { IFD3: { GPSLatitudeRef: 'N', GPSLatitude: exif.gps.lat, GPSLongitudeRef: 'W', GPSLongitude: exif.gps.lon } } : {}),
    })
    .toBuffer();
}

/** The office adds a photo to a ticket through the API (sign, PUT, complete), as its ticket window does. */
async function officePhoto(request: APIRequestContext, auth: Record<string, string>, ticketId: number, n: number) {
  const bytes = await jpeg(10 + n * 20);
  const q = new URLSearchParams({ isVideo: 'false', fileName: `office-${n}.jpg`, fileType: 'image/jpeg', fileSize: String(bytes.length) });
  const sign = await request.get(`${OFFICE}/media_upload/sign-s3-media?${q}`, { headers: auth });
  expect(sign.ok(), await sign.text()).toBeTruthy();
  const signed = (await sign.json()) as { signedRequest: string; url: string; headers: Record<string, string> };
  expect((await request.put(signed.signedRequest.startsWith('/') ? `${SERVER}${signed.signedRequest}` : signed.signedRequest, { headers: signed.headers, data: bytes })).ok()).toBeTruthy();
  const done = await request.post(`${OFFICE}/media_upload/s3-upload-complete`, { headers: auth, form: { ticketId: String(ticketId), url: signed.url, thumbUrl: signed.url, isVideo: 'false' } });
  expect(done.ok(), await done.text()).toBeTruthy();
}

/** A job of the foreman's with one ticket holding `photos` office photos; its id. */
async function ticketWithPhotos(
  request: APIRequestContext,
  seededJob: (t: { pole: { pole_name: string; line_name: string } }[], f?: Record<string, unknown>) => Promise<{ id: number; token: string }>,
  pole: string,
  photos: number,
) {
  const foreman = await signIn(request, USERS.foreman);
  const job = await seededJob([{ pole: { pole_name: pole, line_name: 'L1' } }], { foreman_id: foreman.id });
  const admin = { Authorization: `Bearer ${job.token}` };
  const id = ((await (await request.get(`${OFFICE}/jobs/${job.id}`, { headers: admin })).json()) as { tickets: { id: number }[] }).tickets[0].id;
  for (let n = 1; n <= photos; n++) await officePhoto(request, admin, id, n);
  return { id, admin };
}

/** Opens the ticket with signal and waits until the app and the ticket are kept on the phone. */
async function openWithSignal(page: Page, ticketId: number, pole: string) {
  await login(page, USERS.foreman);
  // The first visit installs the service worker, which fetches every asset of the app: on a busy
  // machine that held the ticket's own first load past its wait. It goes first, then the ticket.
  await page.evaluate(async () => Boolean((await navigator.serviceWorker.ready).active));
  await page.goto(`/work/${ticketId}`);
  await expect(page.getByRole('heading', { name: `Pole ${pole} · Line L1` })).toBeVisible();
  await keptOnDevice(page, [ticketKey(ticketId)]);
}

const photoInput = (page: Page) => page.locator('input[type=file]');
const photosHeading = (page: Page) => page.getByRole('heading', { name: /^Photos \(/ });
const syncLine = (page: Page) => page.getByRole('status').filter({ hasText: /Offline|sync|need/ });

/** The element shows its whole content: nothing cut off or hidden behind an ellipsis. */
const isWhole = (l: Locator) => l.evaluate((el) => el.scrollWidth <= el.clientWidth + 1);

/** Every badge (status chip) in `scope` shows its whole text: nothing cut to "RE…". */
async function expectChipsWhole(scope: Locator) {
  const chips = scope.locator('.mantine-Badge-root');
  expect(await chips.count()).toBeGreaterThan(0);
  for (const chip of await chips.all()) {
    const label = chip.locator('.mantine-Badge-label');
    const fits = await isWhole(label);
    expect(fits, `chip "${await label.textContent()}" is cut`).toBe(true);
  }
}

async function axe(page: Page, screen: string) {
  expect((await axeViolations(page)).map((v) => `${screen}: ${v.id} — ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`)).toEqual([]);
}

const bytesOf = async (d: Download) => readFileSync((await d.path())!);

test('photos refused at the 10-photo limit are kept: the ticket says why, never counts past 10, saves them to the phone and replaces one', async ({ page, request, seededJob, net }) => {
  test.setTimeout(150_000);
  const pole = unique('PL');
  const { id, admin } = await ticketWithPhotos(request, seededJob, pole, 8);
  await openWithSignal(page, id, pole);
  await expect(photosHeading(page)).toHaveText('Photos (8 of 10)');

  // No signal: two photos of the pole, with the camera's time in EXIF.
  net.cut();
  await photoInput(page).setInputFiles({ name: 'IMG_2001.jpg', mimeType: 'image/jpeg', buffer: await jpeg(200, { takenAt: '2026:11:21 08:00:01' }) });
  await expect(photosHeading(page)).toHaveText('Photos (9 of 10)');
  await photoInput(page).setInputFiles({ name: 'IMG_2002.jpg', mimeType: 'image/jpeg', buffer: await jpeg(220, { takenAt: '2026:11:21 08:00:02' }) });
  await expect(photosHeading(page)).toHaveText('Photos (10 of 10)');
  await expect(syncLine(page)).toHaveText(/Offline · 2 changes waiting to sync/);

  // Meanwhile the office fills the ticket.
  await officePhoto(request, admin, id, 9);
  await officePhoto(request, admin, id, 10);

  net.restore();
  const held = page.getByRole('region', { name: 'Photos not on the ticket' });
  await expect(held).toContainText('This ticket already has 10 photos — the office added some while you were offline.', { timeout: 30_000 });
  await expect(photosHeading(page)).toHaveText('Photos (10 of 10)');
  await expect(page.getByText(/waiting to sync/i)).toHaveCount(0);
  await expect(held.getByRole('img')).toHaveCount(2);
  expect(await images(request, admin, id)).toHaveLength(10);

  // Review: both held photos, with whole chips, the Review link inside the screen, no WCAG issue.
  const review = page.getByRole('button', { name: 'Review' });
  await expect(review).toBeInViewport({ ratio: 1 });
  await review.click();
  const drawer = page.getByRole('dialog', { name: 'Changes waiting to sync' });
  await expect(drawer.getByText('IMG_2001.jpg')).toBeVisible();
  await expect(drawer.getByText('IMG_2002.jpg')).toBeVisible();
  await expect(drawer.getByText('This ticket already has 10 photos — the office added some while you were offline.')).toHaveCount(2);
  await expectChipsWhole(drawer);
  // Nothing that can still be saved is offered for discarding.
  await expect(drawer.getByRole('button', { name: 'Discard' })).toHaveCount(0);
  await axe(page, 'review with photos over the limit');
  await page.screenshot({ path: '/tmp/wt-photos-review-full.png' });
  await page.keyboard.press('Escape');

  // Save the first to the phone: the file is the photo's JPEG.
  const first = held.getByRole('group', { name: /IMG_2001/ });
  const download = page.waitForEvent('download');
  await first.getByRole('button', { name: 'Save to this device' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.jpg$/);
  expect((await bytesOf(file)).subarray(0, 2).toString('hex')).toBe('ffd8');

  // Replace one of the office's photos with the second.
  const before = await images(request, admin, id);
  await held.getByRole('group', { name: /IMG_2002/ }).getByRole('button', { name: 'Replace a photo' }).click();
  const pick = page.getByRole('dialog', { name: 'Replace which photo?' });
  await pick.getByRole('button', { name: /^Replace photo 1 of 10/ }).click();
  await expect(held.getByRole('group', { name: /IMG_2002/ })).toHaveCount(0, { timeout: 30_000 });
  // Sent: nothing waits any more; only the first photo, held, needs the crew.
  await expect(syncLine(page)).toHaveText('1 change needs you', { timeout: 30_000 });
  await expect(photosHeading(page)).toHaveText('Photos (10 of 10)');
  await expect(page.getByText(/waiting to sync/i)).toHaveCount(0);
  const after = await images(request, admin, id);
  expect(after).toHaveLength(10);
  expect(after.map((i) => i.id)).not.toContain(before[0].id);
  expect(after.filter((i) => i.taken_at === '2026-11-21T08:00:02.000Z')).toHaveLength(1);
  // The first is still held on the phone, savable.
  await expect(held.getByRole('group', { name: /IMG_2001/ })).toBeVisible();
});

test('a ticket deleted while the crew held a note and a photo: a banner, no Mark complete, one "Save all to this device", everything listed at once', async ({ page, request, seededJob, net }) => {
  test.setTimeout(150_000);
  const pole = unique('DL');
  const foreman = await signIn(request, USERS.foreman);
  const job = await seededJob(
    [{ pole: { pole_name: pole, line_name: 'L1' } }, { pole: { pole_name: `${pole}-2`, line_name: 'L1' } }],
    { foreman_id: foreman.id },
  );
  const admin = { Authorization: `Bearer ${job.token}` };
  const rows = ((await (await request.get(`${OFFICE}/jobs/${job.id}`, { headers: admin })).json()) as { tickets: { id: number; pole_name: string }[] }).tickets;
  const gone = rows.find((t) => t.pole_name === pole)!.id;
  const other = rows.find((t) => t.pole_name === `${pole}-2`)!.id;
  await openWithSignal(page, other, `${pole}-2`);
  // My Work once with signal too: the crew moves between poles by taps in it, offline.
  await page.goto('/work');
  await page.getByRole('searchbox', { name: 'Search my tickets' }).fill(pole);
  await page.getByRole('button', { name: new RegExp(`^Pole ${pole} ·`) }).click();
  await expect(page.getByRole('heading', { name: `Pole ${pole} · Line L1` })).toBeVisible();
  await keptOnDevice(page, [MY_WORK, ticketKey(gone)]);

  net.cut();
  const longNote = 'Crossarm cracked on the field side, replace before energizing; insulator pins bent and the guy strand frayed at the anchor';
  await page.getByRole('textbox', { name: 'New note' }).fill(longNote);
  await page.getByRole('button', { name: 'Add note' }).click();
  await photoInput(page).setInputFiles({ name: 'IMG_3001.jpg', mimeType: 'image/jpeg', buffer: await jpeg(120) });
  await expect(syncLine(page)).toHaveText('Offline · 2 changes waiting to sync');
  // And a note on another pole, which keeps waiting while the network is away.
  await page.getByRole('link', { name: 'My Work' }).first().click();
  await page.getByRole('searchbox', { name: 'Search my tickets' }).fill(`${pole}-2`);
  await page.getByRole('button', { name: new RegExp(`^Pole ${pole}-2 ·`) }).click();
  await page.getByRole('textbox', { name: 'New note' }).fill('Meter moved to the left of the door, customer informed about the outage window');
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(syncLine(page)).toHaveText('Offline · 3 changes waiting to sync');

  // The office deletes the first ticket.
  expect((await request.delete(`${OFFICE}/tickets/${gone}`, { headers: admin })).ok()).toBeTruthy();

  // The network comes back for a moment, long enough to learn of the deletion, then goes again.
  net.restore();
  await expect(syncLine(page)).toHaveText('2 changes need you', { timeout: 30_000 });
  net.cut();
  await page.getByRole('textbox', { name: 'New note' }).fill('Second visit: pole top rotten, flagged for replacement, do not climb');
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(syncLine(page)).toHaveText('Offline · 1 change waiting to sync · 2 need you');
  const bar = page.getByTestId('sync-status-bar');
  expect(await isWhole(bar.getByRole('button', { name: 'Review' }).locator('.mantine-Button-label')), 'the Review link is cut').toBe(true);
  await expect(bar.getByRole('button', { name: 'Review' })).toBeInViewport({ ratio: 1 });
  expect(await bar.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);

  // The deleted ticket on the phone: a banner, no Mark complete, its note and photo listed.
  // (The service worker opens the app with the network cut.)
  await page.goto(`/work/${gone}`);
  const banner = page.getByRole('alert').filter({ hasText: 'deleted' });
  await expect(banner).toContainText('This ticket was deleted in the office. Your note and photo are still on this phone.');
  await expect(page.getByText('Deleted', { exact: true })).toBeVisible();
  await expect(page.getByText('Pending', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Mark complete' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Take photo' })).toHaveCount(0);
  await expect(page.getByText(longNote)).toBeVisible();
  await page.screenshot({ path: '/tmp/wt-photos-deleted-ticket.png' });

  // Review lists both at once, in field words, with no Discard before they are saved.
  await page.getByRole('button', { name: 'Review' }).click();
  const drawer = page.getByRole('dialog', { name: 'Changes waiting to sync' });
  await expect(drawer.getByText(longNote.slice(0, 40))).toBeVisible();
  await expect(drawer.getByText('Photo IMG_3001.jpg')).toBeVisible();
  const goneCards = drawer.locator('.mantine-Card-root', { hasText: 'Ticket deleted' });
  await expect(goneCards).toHaveCount(2);
  await expect(drawer).not.toContainText('another company');
  await expect(goneCards.getByRole('button', { name: 'Discard' })).toHaveCount(0);
  await expectChipsWhole(drawer);
  await axe(page, 'review with a deleted ticket');
  await page.screenshot({ path: '/tmp/wt-photos-review-deleted.png' });

  // One tap saves everything held: the notes as a text file, the photo as a file.
  const downloads: Download[] = [];
  page.on('download', (d) => downloads.push(d));
  await drawer.getByRole('button', { name: 'Save all to this device' }).click();
  await expect.poll(() => downloads.length).toBe(2);
  const text = downloads.find((d) => d.suggestedFilename().endsWith('.txt'))!;
  const photo = downloads.find((d) => d.suggestedFilename().endsWith('.jpg'))!;
  expect((await bytesOf(text)).toString('utf8')).toContain(longNote);
  expect((await bytesOf(photo)).subarray(0, 2).toString('hex')).toBe('ffd8');
  // Saved: now they may be discarded.
  await expect(goneCards.getByRole('button', { name: 'Discard' })).toHaveCount(2);

  // Nothing of it reached the server; the other ticket's first note did.
  expect((await request.get(`${OFFICE}/tickets/${gone}`, { headers: admin })).status()).toBe(404);
  const kept = (await (await request.get(`${OFFICE}/tickets/${other}`, { headers: admin })).json()) as { notes: { note_text: string }[] };
  expect(kept.notes.map((n) => n.note_text)).toEqual(['Meter moved to the left of the door, customer informed about the outage window']);
});

test('at 10 of 10 photos "Take photo" is off and says why; a photo that still arrives is kept on the phone, savable', async ({ page, request, seededJob, net }) => {
  test.setTimeout(120_000);
  const pole = unique('TP');
  const { id, admin } = await ticketWithPhotos(request, seededJob, pole, 9);
  await openWithSignal(page, id, pole);

  net.cut();
  await photoInput(page).setInputFiles({ name: 'IMG_4001.jpg', mimeType: 'image/jpeg', buffer: await jpeg(60) });
  await expect(photosHeading(page)).toHaveText('Photos (10 of 10)');
  const take = page.getByRole('button', { name: 'Take photo' });
  await expect(take).toBeDisabled();
  await expect(page.getByText('This ticket has 10 photos, the most it can hold.')).toBeVisible();
  await expect(take).toHaveAccessibleDescription('This ticket has 10 photos, the most it can hold.');

  // A camera opened before the ticket filled up still hands over its photo.
  await photoInput(page).setInputFiles({ name: 'IMG_4002.jpg', mimeType: 'image/jpeg', buffer: await jpeg(80) });
  const held = page.getByRole('region', { name: 'Photos not on the ticket' });
  await expect(held).toContainText('This ticket already has 10 photos.');
  await expect(held.getByRole('group', { name: /IMG_4002/ })).toBeVisible();
  await expect(photosHeading(page)).toHaveText('Photos (10 of 10)');

  net.restore();
  await expect(syncLine(page)).toHaveText('1 change needs you', { timeout: 30_000 });
  expect(await images(request, admin, id)).toHaveLength(10);
  const download = page.waitForEvent('download');
  await held.getByRole('group', { name: /IMG_4002/ }).getByRole('button', { name: 'Save to this device' }).click();
  expect((await bytesOf(await download)).subarray(0, 2).toString('hex')).toBe('ffd8');
});

test("a photo without EXIF takes the phone's time and position at capture; EXIF wins where it has them", async ({ page, context, request, seededJob, net }) => {
  test.setTimeout(120_000);
  const pole = unique('GP');
  const { id, admin } = await ticketWithPhotos(request, seededJob, pole, 0);
  await context.grantPermissions(['geolocation']);
  await context.setGeolocation({ latitude: 42.4242, longitude: -71.2121, accuracy: 8 });
  await openWithSignal(page, id, pole);

  net.cut();
  const from = Date.now();
  // What many Android pickers hand over: no EXIF at all.
  await photoInput(page).setInputFiles({ name: 'picked.jpg', mimeType: 'image/jpeg', buffer: await jpeg(40) });
  await expect(photosHeading(page)).toHaveText('Photos (1 of 10)');
  const to = Date.now();
  // A camera photo with its own EXIF time and GPS, taken elsewhere.
  await photoInput(page).setInputFiles({
    name: 'IMG_5001.jpg',
    mimeType: 'image/jpeg',
    buffer: await jpeg(70, { takenAt: '2026:11:20 09:15:30', gps: { lat: '42/1 21/1 3600/100', lon: '71/1 3/1 1800/100' } }),
  });
  await expect(photosHeading(page)).toHaveText('Photos (2 of 10)');

  net.restore();
  await expect(page.getByRole('status').filter({ hasText: 'All changes synced' })).toBeVisible({ timeout: 30_000 });
  const stored = await images(request, admin, id);
  expect(stored).toHaveLength(2);
  const picked = stored.find((i) => i.taken_at !== '2026-11-20T09:15:30.000Z')!;
  expect(picked.taken_at).not.toBeNull();
  const at = Date.parse(picked.taken_at!);
  expect(at).toBeGreaterThanOrEqual(from - 1000);
  expect(at).toBeLessThanOrEqual(to + 1000);
  expect([picked.geo_lat, picked.geo_lon]).toEqual([42.4242, -71.2121]);
  const camera = stored.find((i) => i.taken_at === '2026-11-20T09:15:30.000Z')!;
  expect(camera.geo_lat).toBeCloseTo(42.36, 5);
  expect(camera.geo_lon).toBeCloseTo(-71.055, 5);
});
