import { readFileSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { API, DEMO_PASSWORD, USERS, expect, fixture, login, unique } from './fixtures';
import { test } from './netcut';
import { axeViolations } from './axe';
import { MY_ACCOUNT, keptOnDevice, ticketKey } from './kept';

// The offline app: the service worker serves it without a network (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/**
 * What a crew needs at the pole (docs/product/field-mode.md §2, decision 039), on a phone (390 × 844), with the
 * network cut for real (e2e/netcut.ts): "Before you climb" on the phone ticket view — voltages,
 * arc rating, EHASP, hospital, ambulance meet-up, work orders, dig-safe / NRA and the documents —
 * read from the copy on the phone; My Work found by work order and unit; the User page and
 * Logout without signal.
 */
const PHONE = { width: 390, height: 844 };

async function axe(page: Page) {
  return (await axeViolations(page)).map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')}`);
}

async function signIn(request: APIRequestContext, email: string) {
  const res = await request.post(`${API}/crew/login`, { data: { email, password: DEMO_PASSWORD } });
  expect(res.ok()).toBeTruthy();
  const body = (await res.json()) as { token: string; user: { id: number } };
  return { id: body.user.id, auth: { Authorization: `Bearer ${body.token}` } };
}

/** A PDF uploaded through the signed-upload flow, as the office's ticket window does. */
async function uploadPdf(request: APIRequestContext, auth: Record<string, string>, directory: string, fileName: string) {
  const pdf = readFileSync(fixture('packet.pdf'));
  const q = new URLSearchParams({ directory, fileName, fileType: 'application/pdf', fileSize: String(pdf.length) });
  const signed = (await (await request.get(`${API}/doc_upload/sign-s3-pdf?${q}`, { headers: auth })).json()) as { signedRequest: string; url: string; headers: Record<string, string> };
  expect((await request.put(signed.signedRequest, { headers: signed.headers, data: pdf })).ok()).toBeTruthy();
  return signed.url;
}

/** The service worker has precached the app: from now on the app opens without network. */
async function appInstalled(page: Page) {
  await page.evaluate(async () => Boolean((await navigator.serviceWorker.ready).active));
}

test.describe('at the pole, on a phone', () => {
  test.use({ viewport: PHONE });

  test('"Before you climb" shows what the office entered, and still does from the copy on the phone with no signal', async ({ page, request, seededJob, net }) => {
    test.setTimeout(150_000);
    const foreman = await signIn(request, USERS.foreman);
    const pole = unique('BC');
    const job = await seededJob(
      [
        {
          pole: { pole_name: pole, line_name: 'L4', primary_voltage: '13.2 kV', secondary_voltage: '240/120 V', arc_rating: '4 cal/cm²' } as never,
          street_address: '9 Ridge Rd',
          work_orders: ['WO-41871', 'WO-41872'],
          tasks: [{ code: 'P40-2', init_qty: 1 }],
          ehasp: 'EHASP-77 on the truck',
          ambulance_meetup: 'Shell station, Route 9 and Elm',
        } as never,
        { pole: { pole_name: `${pole}-2`, line_name: 'L4' }, work_orders: ['WO-50001'] },
        // More than the three fetched at once: the rest are fetched only if the fetching goes on.
        ...Array.from({ length: 9 }, (_, i) => ({ pole: { pole_name: `${pole}-${i + 3}`, line_name: 'L4' } })),
      ],
      {
        foreman_id: foreman.id,
        hospital_name: 'Baystate Medical Center',
        hospital_address: '759 Chestnut St, Springfield MA',
        work_contact_phone: '4135550199',
        arc_rating_override: '8 cal/cm²',
      },
    );
    const admin = { Authorization: `Bearer ${job.token}` };
    const rows = ((await (await request.get(`${API}/jobs/${job.id}`, { headers: admin })).json()) as { tickets: { id: number; pole_name: string; version: number }[] }).tickets;
    const ticket = rows.find((t) => t.pole_name === pole)!;
    const other = rows.find((t) => t.pole_name === `${pole}-2`)!;
    // The office adds the dig-safe document; NRA stays required with none.
    const digUrl = await uploadPdf(request, admin, 'dig_file', 'digsafe-1187.pdf');
    const saved = await request.put(`${API}/tickets/`, {
      headers: admin,
      data: { ticket: { id: ticket.id, version: ticket.version, dig_safe_url: digUrl, dig_safe_name: 'digsafe-1187.pdf', dig_safe_required: 1, nra_required: 1 } },
    });
    expect(saved.ok(), await saved.text()).toBeTruthy();
    const otherUrl = await uploadPdf(request, admin, 'dig_file', 'digsafe-2290.pdf');
    const savedOther = await request.put(`${API}/tickets/`, {
      headers: admin,
      data: { ticket: { id: other.id, version: other.version, dig_safe_url: otherUrl, dig_safe_name: 'digsafe-2290.pdf', dig_safe_required: 1 } },
    });
    expect(savedOther.ok(), await savedOther.text()).toBeTruthy();

    await login(page, USERS.foreman);
    await page.goto('/work');
    await expect(page.getByRole('region', { name: `Job ${job.number}` })).toBeVisible();
    // The crew taps the first ticket at once: My Work's fetching ahead goes on behind the ticket.
    await page.getByRole('button', { name: new RegExp(`^Pole ${pole} · Line L4`) }).click();
    await expect(page).toHaveURL(new RegExp(`/work/${ticket.id}$`));
    // Every ticket of the job reaches the phone all the same, the one never opened here too.
    await keptOnDevice(page, rows.map((r) => ticketKey(r.id)));
    const block = page.getByRole('region', { name: 'Before you climb' });
    await expect(block).toBeVisible();
    const fact = (label: string) => block.getByRole('row', { name: new RegExp(`^${label}`) });
    await expect(fact('Primary voltage')).toContainText('13.2 kV');
    await expect(fact('Secondary voltage')).toContainText('240/120 V');
    // The job's override is what the crew goes by (the import wrote it over the workbook's 4 cal/cm²).
    await expect(fact('Arc rating')).toContainText('8 cal/cm²');
    await expect(fact('EHASP')).toContainText('EHASP-77 on the truck');
    await expect(fact('Hospital')).toContainText('Baystate Medical Center');
    await expect(fact('Hospital')).toContainText('759 Chestnut St, Springfield MA');
    await expect(fact('Ambulance meet-up')).toContainText('Shell station, Route 9 and Elm');
    await expect(fact('Work contact').getByRole('link', { name: '4135550199' })).toHaveAttribute('href', 'tel:4135550199');
    await expect(fact('Work orders')).toContainText('WO-41871, WO-41872');
    await expect(fact('Dig Safe')).toContainText('document on file');
    await expect(fact('NRA/DNR')).toContainText('no document yet');
    const packet = block.getByRole('link', { name: 'Open packet.pdf' });
    await expect(packet).toHaveAttribute('href', /^\/files\//);
    await expect(block.getByRole('link', { name: 'Open digsafe-1187.pdf' })).toHaveAttribute('href', digUrl);
    // A link opens the document itself.
    const opened = await request.get(await packet.getAttribute('href').then((h) => h!), { headers: admin });
    expect(opened.headers()['content-type']).toBe('application/pdf');
    expect(await axe(page)).toEqual([]);

    await appInstalled(page);
    // The copies and the documents are kept a moment after the answers.
    await expect
      .poll(async () => page.evaluate(async () => (await caches.keys()).some((k) => k.startsWith('linecrew-documents-')) && (await (await caches.open((await caches.keys()).find((k) => k.startsWith('linecrew-documents-'))!)).keys()).length), { timeout: 15_000 })
      .toBe(2);
    await page.waitForTimeout(2500);

    // No signal at the pole: the block reads the same from the copy, and the kept documents open.
    net.cut();
    try {
    await page.reload();
    await expect(page.getByTestId('copy-note')).toContainText('Offline copy from');
    await expect(fact('Primary voltage')).toContainText('13.2 kV');
    await expect(fact('Arc rating')).toContainText('8 cal/cm²');
    await expect(fact('Hospital')).toContainText('Baystate Medical Center');
    await expect(fact('Ambulance meet-up')).toContainText('Shell station, Route 9 and Elm');
    await expect(fact('Work orders')).toContainText('WO-41871, WO-41872');
    const keptPacket = block.getByRole('link', { name: 'Open packet.pdf' });
    await expect(keptPacket).toHaveAttribute('href', /^blob:/);
    // The link opens the bytes kept on the phone: the packet itself, whole.
    const kept = await page.evaluate(async () => {
      const name = (await caches.keys()).find((k) => k.startsWith('linecrew-documents-'))!;
      const cache = await caches.open(name);
      const hit = (await cache.keys()).find((r) => r.url.endsWith('/packet.pdf'));
      const res = hit && (await cache.match(hit));
      return res ? { type: res.headers.get('content-type'), size: (await res.arrayBuffer()).byteLength } : null;
    });
    expect(kept).toEqual({ type: 'application/pdf', size: readFileSync(fixture('packet.pdf')).length });
    await expect(block.getByRole('link', { name: 'Open digsafe-1187.pdf' })).toHaveAttribute('href', /^blob:/);
    expect(await axe(page)).toEqual([]);

    // A ticket of My Work never opened here: its copy was fetched ahead, its own document was not
    // (the job's packet was, with the first ticket).
    await page.goto(`/work/${other.id}`);
    await expect(fact('Work order')).toContainText('WO-50001');
    await expect(fact('Hospital')).toContainText('Baystate Medical Center');
    await expect(block).toContainText('digsafe-2290.pdf: Open when you have signal');
    await expect(block.getByRole('link', { name: /digsafe-2290/ })).toHaveCount(0);
    await expect(block.getByRole('link', { name: 'Open packet.pdf' })).toHaveAttribute('href', /^blob:/);
    } finally {
      net.restore();
    }
  });

  test('My Work finds a ticket by its work order or a unit code', async ({ page, request, seededJob }) => {
    const foreman = await signIn(request, USERS.foreman);
    const wo = unique('WO');
    const pole = unique('SW');
    await seededJob(
      [
        { pole: { pole_name: pole, line_name: '3' }, work_orders: [wo], tasks: [{ code: 'XA8', init_qty: 1 }] },
        { pole: { pole_name: `${pole}-2`, line_name: '3' }, tasks: [{ code: 'P40-2', init_qty: 1 }] },
      ],
      { foreman_id: foreman.id },
    );
    await login(page, USERS.foreman);
    await page.goto('/work');
    const search = page.getByRole('searchbox', { name: 'Search my tickets' });
    await search.fill(wo);
    await expect(page.getByRole('button', { name: new RegExp(`Pole ${pole} · Line 3`) })).toBeVisible();
    await expect(page.locator('[data-ticket-id]')).toHaveCount(1);
    // A unit code and the pole together: the second ticket of the job.
    await search.fill(`p40-2 ${pole}-2`);
    await expect(page.getByRole('button', { name: new RegExp(`Pole ${pole}-2 · Line 3`) })).toBeVisible();
    await expect(page.locator('[data-ticket-id]')).toHaveCount(1);
  });

  test('the User page opens without signal, says what needs signal, and Logout is in the menu', async ({ page, net }) => {
    test.setTimeout(90_000);
    await login(page, USERS.lineman);
    await page.goto('/user');
    await expect(page.getByRole('heading', { name: 'User Account' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Email Address' })).toHaveValue(USERS.lineman);
    await appInstalled(page);
    await keptOnDevice(page, [MY_ACCOUNT]);

    net.cut();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'User Account' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Email Address' })).toHaveValue(USERS.lineman);
    await expect(page.getByRole('textbox', { name: 'Company Name' })).toHaveValue('Demo Line Co');
    const note = page.getByTestId('account-offline-note');
    await expect(note).toContainText('No signal');
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Reset Password' })).toBeDisabled();
    expect(await axe(page)).toEqual([]);

    // Logout is in the menu, for every role.
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    const menu = page.getByRole('navigation', { name: 'Main' });
    await expect(menu.getByRole('button', { name: 'Logout' })).toBeVisible();

    // With signal again (the app notices within seconds), Logout from the menu signs out.
    net.restore();
    await expect(page.getByTestId('account-offline-note')).toHaveCount(0, { timeout: 30_000 });
    if (!(await menu.isVisible())) await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await menu.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    // Signed out for real: the cookie no longer opens the app.
    await page.goto('/user');
    await expect(page).toHaveURL(/\/login/);
  });
});
