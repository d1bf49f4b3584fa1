import type { APIRequestContext, Page } from '@playwright/test';
import { MSG } from '../src/shared/messages';
import { API, expect, test, unique, USERS, type SeededJob } from './fixtures';
import { openJob, ticketWindow } from './ticketJobs';

/**
 * The map (docs/product/map.md §1): the job's tickets on a map that follows the table's filters, a pole
 * opened from it, moved by dragging it, and placed with the phone's position; My Work's map and
 * Nearest first. There is no network here: every base-map tile fails, and the points must show
 * all the same.
 */

interface Row {
  id: number;
  pole_name: string;
  version: number;
  geo_lat: number | null;
  geo_lon: number | null;
}

async function rowsOf(request: APIRequestContext, job: SeededJob): Promise<Row[]> {
  const res = await request.get(`${API}/jobs/${job.id}`, { headers: { Authorization: `Bearer ${job.token}` } });
  expect(res.ok()).toBeTruthy();
  return ((await res.json()) as { tickets: Row[] }).tickets;
}

async function saveTicket(request: APIRequestContext, job: SeededJob, ticket: Record<string, unknown>) {
  const res = await request.put(`${API}/tickets/`, { headers: { Authorization: `Bearer ${job.token}` }, data: { ticket } });
  expect(res.ok(), await res.text()).toBeTruthy();
}

const choice = (page: Page, group: string, option: string) => page.getByRole('group', { name: group }).getByRole('button', { name: option, exact: true });
const mapCount = (page: Page) => page.getByTestId('map-count');
const map = (page: Page) => page.getByRole('region', { name: /^Map of/ });

test.describe('the map', () => {
  test.describe.configure({ timeout: 120_000 });

  test('the job map shows the poles with coordinates, follows the filters, and a click on a pole opens its ticket', async ({ page, request, loginAs, seededJob }) => {
    const [a, b, c] = [unique('MPA').slice(-9), unique('MPB').slice(-9), unique('MPC').slice(-9)];
    const job = await seededJob([
      { pole: { pole_name: a, line_name: '1' }, geo_lat: 42.201, geo_lon: -72.601 },
      { pole: { pole_name: b, line_name: '1' }, geo_lat: 42.203, geo_lon: -72.604 },
      { pole: { pole_name: c, line_name: '1' } },
    ]);
    const rows = await rowsOf(request, job);
    const rowB = rows.find((r) => r.pole_name === b)!;
    await saveTicket(request, job, { id: rowB.id, version: rowB.version, status: 'Complete' });

    await loginAs(USERS.admin);
    await openJob(page, job.id);
    await choice(page, 'Show the tickets as', 'Map').click();
    await expect(mapCount(page)).toHaveText('2 of 3 poles on the map');
    await expect(map(page)).toBeVisible();
    // No network: the tiles fail, the page says so, and the poles still show (below).
    await expect(page.getByText(/Base map unavailable/)).toBeVisible();
    await expect(page.getByText('© OpenStreetMap contributors')).toBeVisible();

    // Zoomed out, the two poles become one cluster that shows its count; a click zooms in.
    for (let i = 0; i < 5; i++) {
      await page.getByRole('button', { name: 'Zoom out' }).click();
      await page.waitForTimeout(300);
    }
    const cluster = page.getByRole('button', { name: '2 poles here: zoom in' });
    await expect(cluster).toHaveText('2');
    await cluster.click();
    await expect(cluster).toBeHidden();

    // The table's filters apply to the map.
    await choice(page, 'Status', 'Pending').click();
    await expect(mapCount(page)).toHaveText('1 of 2 poles on the map');
    await choice(page, 'Status', 'Complete').click();
    await expect(mapCount(page)).toHaveText('1 of 1 pole on the map');
    await choice(page, 'Status', 'Pending').click();

    // One pole left: Fit to job centres it; a click on it opens its ticket as a row does.
    await page.getByRole('button', { name: 'Fit to job' }).click();
    await page.waitForTimeout(500);
    await map(page).click();
    const rowA = rows.find((r) => r.pole_name === a)!;
    await expect(page).toHaveURL(new RegExp(`ticket=${rowA.id}`));
    await expect(ticketWindow(page)).toBeVisible();
    await ticketWindow(page).getByRole('tab', { name: 'Pole' }).click();
    await expect(ticketWindow(page).getByRole('textbox', { name: 'Pole', exact: true })).toHaveValue(a);

    // The view is remembered on this device.
    await page.keyboard.press('Escape');
    await page.reload();
    await expect(mapCount(page)).toHaveText('2 of 3 poles on the map', { timeout: 30_000 });
  });

  test('on a phone the cards switch to the map, which opens a ticket as a card does', async ({ page, loginAs, seededJob }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const pole = unique('PH').slice(-9);
    const job = await seededJob([{ pole: { pole_name: pole, line_name: '4' }, geo_lat: 42.401, geo_lon: -72.801 }, { pole: { pole_name: unique('PX').slice(-9), line_name: '4' } }]);
    await loginAs(USERS.lineman);
    await page.goto(`/job?id=${job.id}`);
    await expect(page.getByTestId('ticket-card')).toHaveCount(2, { timeout: 45_000 });
    await choice(page, 'Show the tickets as', 'Map').click();
    await expect(mapCount(page)).toHaveText('1 of 2 poles on the map');
    await expect(page.getByTestId('ticket-card')).toHaveCount(0);
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.waitForTimeout(500);
    await map(page).click();
    await expect(ticketWindow(page)).toBeVisible();
    await expect(ticketWindow(page).getByText(pole).first()).toBeVisible();
  });

  test('an office user drags a pole to move it: asked first, saved with its version, a stale one refused', async ({ page, request, loginAs, seededJob }) => {
    const pole = unique('MV').slice(-9);
    const job = await seededJob([{ pole: { pole_name: pole, line_name: '2' }, geo_lat: 42.301, geo_lon: -72.701 }]);
    await loginAs(USERS.office);
    await openJob(page, job.id);
    await choice(page, 'Show the tickets as', 'Map').click();
    await expect(mapCount(page)).toHaveText('1 of 1 pole on the map');
    await page.waitForTimeout(500);
    // The mouse acts where the page shows: the map scrolled into view first.
    const drag = async () => {
      await map(page).scrollIntoViewIfNeeded();
      const box = (await map(page).boundingBox())!;
      const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.move(x + 40, y + 20, { steps: 5 });
      await page.mouse.move(x + 80, y + 40, { steps: 5 });
      await page.mouse.up();
    };

    // Someone saves the ticket after the map was drawn: the move is refused with the usual message.
    const [before] = await rowsOf(request, job);
    await saveTicket(request, job, { id: before.id, version: before.version, description: 'edited elsewhere' });
    await drag();
    const ask = page.getByRole('dialog', { name: 'Move pole' });
    await expect(ask).toContainText(`Move pole ${pole} here?`);
    await ask.getByRole('button', { name: 'Move' }).click();
    await expect(page.getByText(MSG.staleVersion)).toBeVisible();
    expect((await rowsOf(request, job))[0]).toMatchObject({ geo_lat: 42.301, geo_lon: -72.701 });

    // The point went back and the job was read again: now the move is saved.
    await page.waitForTimeout(500);
    await drag();
    await ask.getByRole('button', { name: 'Move' }).click();
    await expect(page.getByText(`Pole ${pole} moved.`)).toBeVisible();
    const after = (await rowsOf(request, job))[0];
    expect(after.geo_lat).not.toBeNull();
    expect(after.geo_lat!).toBeLessThan(42.301);
    expect(after.geo_lon!).toBeGreaterThan(-72.701);
    // Stored to 6 decimals at most.
    expect(String(after.geo_lat).split('.')[1]?.length ?? 0).toBeLessThanOrEqual(6);
    await expect(ticketWindow(page)).toBeHidden();

    // Cancelling leaves the pole where it is.
    await page.getByRole('button', { name: 'Fit to job' }).click();
    await page.waitForTimeout(500);
    await drag();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    expect((await rowsOf(request, job))[0]).toMatchObject({ geo_lat: after.geo_lat, geo_lon: after.geo_lon });
  });

  test('"Use my location" fills the ticket\'s coordinates, and Save stores them', async ({ page, context, request, loginAs, seededJob }) => {
    const pole = unique('GL').slice(-9);
    const job = await seededJob([{ pole: { pole_name: pole, line_name: '3' } }]);
    await context.grantPermissions(['geolocation']);
    await context.setGeolocation({ latitude: 42.3601239, longitude: -71.0589871 });
    await loginAs(USERS.foreman);
    await openJob(page, job.id);
    await page.locator('[data-ticket-id]').first().click();
    const win = ticketWindow(page);
    await win.getByRole('tab', { name: /Info/ }).click();
    await win.getByRole('button', { name: 'Use my location' }).click();
    // Cut (not rounded) to 6 decimals, like a typed coordinate.
    await expect(win.getByRole('textbox', { name: 'Latitude' })).toHaveValue('42.360123');
    await expect(win.getByRole('textbox', { name: 'Longitude' })).toHaveValue('-71.058987');
    await win.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Ticket saved.')).toBeVisible();
    expect((await rowsOf(request, job))[0]).toMatchObject({ geo_lat: 42.360123, geo_lon: -71.058987 });
  });

  test('My Work: Nearest first orders the tickets by distance from the phone, those without a place last; the map shows them and me', async ({ page, context, seededJob, loginAs }) => {
    const far = unique('NF').slice(-9);
    const mid = unique('NM').slice(-9);
    const near = unique('NN').slice(-9);
    const none = unique('NX').slice(-9);
    // Work order (soonest due first) is far, none, mid, near: the opposite of the distances.
    const job = await seededJob([
      { pole: { pole_name: near, line_name: '1' }, geo_lat: 10.001, geo_lon: 10.001, due_date: '2099-04-01' },
      { pole: { pole_name: mid, line_name: '1' }, geo_lat: 10.02, geo_lon: 10.02, due_date: '2099-03-01' },
      { pole: { pole_name: none, line_name: '1' }, due_date: '2099-02-01' },
      { pole: { pole_name: far, line_name: '1' }, geo_lat: 10.3, geo_lon: 10.3, due_date: '2099-01-01' },
    ]);
    await context.grantPermissions(['geolocation']);
    await context.setGeolocation({ latitude: 10, longitude: 10 });
    await loginAs(USERS.admin);
    await page.goto('/work');
    await page.getByRole('searchbox', { name: 'Search my tickets' }).fill(job.number);
    const cards = page.locator('[data-ticket-id]');
    const poles = async () => (await cards.allTextContents()).map((t) => /Pole (\S+)/.exec(t)?.[1]);
    await expect(cards).toHaveCount(4);
    expect(await poles()).toEqual([far, none, mid, near]);

    await choice(page, 'Order my tickets', 'Nearest first').click();
    await expect(choice(page, 'Order my tickets', 'Nearest first')).toHaveAttribute('aria-pressed', 'true');
    await expect(cards.first()).toContainText(' away');
    expect(await poles()).toEqual([near, mid, far, none]);
    await expect(cards.first()).toContainText('ft away');
    await expect(cards.last()).toContainText('No location');

    // The map of the same tickets, and the phone's position on it once asked for.
    await choice(page, 'Show my tickets as', 'Map').click();
    await expect(mapCount(page)).toHaveText('3 of 4 poles on the map');
    await page.getByRole('button', { name: 'Show my position' }).click();
    await expect(page.getByText(/^You \(±\d+ m\)$/)).toBeVisible();
    // The search applies to the map; a click on a pole opens its ticket.
    await page.getByRole('searchbox', { name: 'Search my tickets' }).fill(near);
    await expect(mapCount(page)).toHaveText('1 of 1 pole on the map');
    await page.getByRole('button', { name: 'Fit to my tickets' }).click();
    await page.waitForTimeout(500);
    await map(page).click();
    await expect(page).toHaveURL(/\/work\/\d+$/);
    await expect(page.getByText(`Pole ${near}`).first()).toBeVisible();
  });
});
