import { axeViolations } from './axe';
import type { APIRequestContext, Page } from '@playwright/test';
import { API, DEMO_PASSWORD, USERS, expect, unique, type NewTicket, type SeededJob } from './fixtures';
import { test } from './netcut';
import { keptOnDevice, ticketKey } from './kept';

// The offline app: the service worker serves it without a network (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/**
 * Sessions per device and queued work (docs/product/sessions-and-safety.md §4–§5, decision 036). A
 * foreman's phone holds changes made without signal; his session is ended from another device;
 * when the signal returns the phone says so, keeps the changes, and sends each of them once after
 * he signs in again. On a shared phone, another user's sign-in never sends them. The network is
 * cut at a proxy (netcut.ts), as a road cuts it.
 */

const PHONE = { width: 390, height: 844 };
const SERVER = `http://localhost:${process.env.E2E_PORT ?? 3210}`;

interface ServerTicket {
  status: string;
  tasks: { code: string; init_qty: number; additional_qty: number }[];
  notes: { note_text: string; author_id: number | null }[];
}

async function signIn(request: APIRequestContext, email: string) {
  const res = await request.post(`${API}/crew/login`, { data: { email, password: DEMO_PASSWORD } });
  expect(res.ok()).toBeTruthy();
  const body = (await res.json()) as { token: string; user: { id: number } };
  return { id: body.user.id, auth: { Authorization: `Bearer ${body.token}` } };
}

async function readTicket(request: APIRequestContext, auth: Record<string, string>, id: number): Promise<ServerTicket> {
  const res = await request.get(`${API}/tickets/${id}`, { headers: auth });
  expect(res.ok()).toBeTruthy();
  const body = (await res.json()) as ServerTicket | { ticket: ServerTicket };
  return 'ticket' in body ? body.ticket : body;
}

/** Signs in on the login page as it stands (the page the app sent the person to). */
async function signInHere(page: Page, email: string) {
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
}

/** The foreman's ticket of a new job, opened on the phone with signal, so it is kept offline. */
async function openTicketOnPhone(page: Page, request: APIRequestContext, seededJob: (tickets: NewTicket[], fields?: Record<string, unknown>) => Promise<SeededJob>) {
  const foreman = await signIn(request, USERS.foreman);
  const pole = unique('SS');
  const job = await seededJob(
    [{ pole: { pole_name: pole, line_name: 'L3' }, street_address: '3 Session Rd', tasks: [{ code: 'P40-2', init_qty: 2 }] }],
    { foreman_id: foreman.id },
  );
  const admin = { Authorization: `Bearer ${job.token}` };
  const ticketId = ((await (await request.get(`${API}/jobs/${job.id}`, { headers: admin })).json()) as { tickets: { id: number }[] }).tickets[0].id;

  await page.setViewportSize(PHONE);
  await page.goto('/login');
  await signInHere(page, USERS.foreman);
  await page.goto(`/work/${ticketId}`);
  await expect(page.getByRole('heading', { name: `Pole ${pole} · Line L3` })).toBeVisible();
  // The service worker has the app, and the copy of the ticket is on the phone.
  await page.evaluate(async () => Boolean((await navigator.serviceWorker.ready).active));
  await keptOnDevice(page, [ticketKey(ticketId)]);
  return { foreman, ticketId, pole };
}

/** WCAG 2.x A/AA (as e2e/a11y.spec.ts): axe finds nothing on the screen as it stands. */
async function axe(page: Page, screen: string) {
  expect((await axeViolations(page)).map((v) => `${screen}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`)).toEqual([]);
}

const status = (page: Page) => page.getByRole('status').filter({ hasText: /Offline|sync/ });

test('signed out from another device while offline: the phone keeps its changes, asks to sign in again, and sends each once', async ({ page, context, request, net, seededJob, playwright }) => {
  test.setTimeout(150_000);
  const { foreman, ticketId } = await openTicketOnPhone(page, request, seededJob);

  net.cut();
  await page.getByRole('button', { name: 'One more P40-2' }).click();
  await expect(page.getByText('Actual quantity of P40-2: 3')).toBeVisible();
  await page.getByRole('textbox', { name: 'New note' }).fill('Insulator replaced on the crossarm');
  await page.getByRole('button', { name: 'Add note' }).click();
  await page.getByRole('button', { name: 'Mark complete' }).click();
  await expect(page.getByRole('button', { name: 'Reopen' })).toBeVisible();
  await expect(status(page)).toHaveText('Offline · 3 changes waiting to sync');

  // From the office PC (straight to the server, not through the phone's cut link), Frank signs
  // his phone out: the session named by the phone's cookie.
  const office = await playwright.request.newContext({ baseURL: SERVER });
  const other = await signIn(office, USERS.foreman);
  const cookie = (await context.cookies()).find((c) => c.name === 'linecrew_token')!;
  const phoneSession = (JSON.parse(Buffer.from(cookie.value.split('.')[1], 'base64url').toString()) as { sid: string }).sid;
  const listed = (await (await office.get(`${API}/crew/sessions`, { headers: other.auth })).json()) as { sessions: { id: string; system: string }[] };
  expect(listed.sessions.map((s) => s.id)).toContain(phoneSession);
  expect((await office.delete(`${API}/crew/sessions/${phoneSession}`, { headers: other.auth })).status()).toBe(200);
  const admin = await signIn(office, USERS.admin);
  expect((await readTicket(office, admin.auth, ticketId)).notes).toHaveLength(0);

  // Signal again: the phone learns its session ended, keeps the changes and says whose they are.
  net.restore();
  await page.waitForURL((url) => url.pathname === '/login', { timeout: 30_000 });
  await expect(page.getByTestId('signed-out-notice')).toHaveText(
    'Signed out. 3 changes from Frank Foreman are waiting on this device — they will be sent after Frank signs in again.',
  );
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(USERS.foreman);
  expect((await readTicket(office, admin.auth, ticketId)).notes).toHaveLength(0);

  await signInHere(page, USERS.foreman);
  await expect(page.getByRole('status').filter({ hasText: 'All changes synced' })).toBeVisible({ timeout: 30_000 });
  const stored = await readTicket(office, admin.auth, ticketId);
  expect(stored.status).toBe('Complete');
  expect(stored.tasks.map((t) => [t.code, t.init_qty + t.additional_qty])).toEqual([['P40-2', 3]]);
  expect(stored.notes.map((n) => [n.note_text, n.author_id])).toEqual([['Insulator replaced on the crossarm', foreman.id]]);
  await office.dispose();
});

test("a shared phone: Logout with changes waiting asks first; the next user is told whose changes wait, and they are not sent under that user's account", async ({ page, request, net, seededJob, playwright }) => {
  test.setTimeout(150_000);
  const { foreman, ticketId } = await openTicketOnPhone(page, request, seededJob);
  const menu = async (link: string) => {
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await page.getByRole('link', { name: link }).click();
  };
  // The User page once with signal, so it opens from the cache without it.
  await menu('User');
  await expect(page.getByRole('heading', { name: 'User Account' })).toBeVisible();
  await expect(page.getByRole('listitem', { name: /^This device: Chrome \d+ on (Windows|Linux)$/ })).toBeVisible();
  await page.screenshot({ path: '/tmp/sessions-user-page.png', fullPage: true });
  await axe(page, 'User page with sessions');
  await page.goBack();

  net.cut();
  await page.getByRole('textbox', { name: 'New note' }).fill('Pole tag missing');
  await page.getByRole('button', { name: 'Add note' }).click();
  await page.getByRole('button', { name: 'One more P40-2' }).click();
  await expect(status(page)).toHaveText('Offline · 2 changes waiting to sync');

  await menu('User');
  await page.getByRole('button', { name: 'Logout' }).click();
  const ask = page.getByRole('dialog', { name: 'Changes are waiting on this device' });
  await expect(ask).toContainText(
    '2 changes you made have not reached the office yet. If you log out, they stay on this device and are sent the next time Frank Foreman signs in here. Nobody else who signs in on this device can send them.',
  );
  await page.screenshot({ path: '/tmp/sessions-logout-ask.png' });
  await axe(page, 'Logout with changes waiting');
  await ask.getByRole('button', { name: 'Stay logged in' }).click();
  await expect(ask).toBeHidden();
  await expect(page).toHaveURL(/\/user$/);
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByRole('dialog', { name: 'Changes are waiting on this device' }).getByRole('button', { name: 'Log out anyway' }).click();
  await page.waitForURL((url) => url.pathname === '/login');
  const waitingForFrank = '2 changes from Frank Foreman are waiting on this device — they will be sent after Frank signs in again.';
  await expect(page.getByTestId('signed-out-notice')).toHaveText(waitingForFrank);
  await page.screenshot({ path: '/tmp/sessions-login-notice.png' });
  await axe(page, 'Login with changes waiting');

  // Olivia from the office picks the phone up and signs in: she is told, and her own change goes
  // through the queue while Frank's stay.
  net.restore();
  await signInHere(page, USERS.office);
  await expect(page.getByTestId('others-waiting')).toHaveText(`${waitingForFrank} They are not sent with your sign-in.`);
  await page.screenshot({ path: '/tmp/sessions-others-waiting.png' });
  await axe(page, "Another user's changes waiting");
  await page.goto(`/work/${ticketId}`);
  await page.getByRole('textbox', { name: 'New note' }).fill('Office checked the permit');
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'All changes synced' })).toBeVisible({ timeout: 30_000 });
  const server = await playwright.request.newContext({ baseURL: SERVER });
  const admin = await signIn(server, USERS.admin);
  expect((await readTicket(server, admin.auth, ticketId)).notes.map((n) => n.note_text)).toEqual(['Office checked the permit']);

  // Olivia has nothing waiting: Logout does not ask. Frank signs in again: his changes go, once.
  await page.goto('/user');
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL((url) => url.pathname === '/login');
  await expect(page.getByTestId('signed-out-notice')).toHaveText(waitingForFrank);
  await signInHere(page, USERS.foreman);
  await expect(page.getByTestId('others-waiting')).toHaveCount(0);
  // "All changes synced" already showed for Olivia's note: wait for the server to have Frank's.
  await expect.poll(async () => (await readTicket(server, admin.auth, ticketId)).notes.length, { timeout: 30_000 }).toBe(2);
  const stored = await readTicket(server, admin.auth, ticketId);
  expect(stored.notes.filter((n) => n.note_text === 'Pole tag missing').map((n) => n.author_id)).toEqual([foreman.id]);
  await expect.poll(async () => (await readTicket(server, admin.auth, ticketId)).tasks.map((t) => t.init_qty + t.additional_qty), { timeout: 30_000 }).toEqual([3]);
  await expect(page.getByRole('status').filter({ hasText: 'All changes synced' })).toBeVisible({ timeout: 30_000 });
  expect((await readTicket(server, admin.auth, ticketId)).notes).toHaveLength(2);
  await server.dispose();
});
