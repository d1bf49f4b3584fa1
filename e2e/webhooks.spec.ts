import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, USERS } from './fixtures';
import { scan } from './axe';

/**
 * The Webhooks page (docs/product/integrations.md §4), as an Admin uses it on a desktop and on a
 * phone: add an endpoint (its secret shown once, copied), a real delivery to a receiver on
 * loopback shows in the log, Resend sends the same webhook-id again, disable, delete with a
 * confirm. axe finds no WCAG A/AA violation. The e2e server allows loopback endpoints
 * (WEBHOOKS_ALLOW_PRIVATE=1 in scripts/e2e-server.mjs).
 */

interface Delivery {
  id: string;
  body: { type: string; data: Record<string, unknown> };
}

for (const size of [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`webhooks page on a ${size.name}: add, a delivery in the log, Resend, disable, delete`, async ({ page, context, loginAs, seededJob }) => {
    // Two deliveries by the server's worker (a poll every 2 s, a try each) and two axe scans.
    test.setTimeout(120_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const got: Delivery[] = [];
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        got.push({ id: String(req.headers['webhook-id']), body: JSON.parse(body) });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks-${size.name}`;
    const found: string[] = [];
    try {
      await loginAs(USERS.admin);
      await page.goto('/user');
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();

      // A URL that is not one: the server's words under the field.
      await page.getByRole('textbox', { name: /Endpoint URL/ }).fill('ftp://example.com/x');
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await expect(page.getByText('Enter the full URL of your endpoint, starting with https://')).toBeVisible();

      await page.getByRole('textbox', { name: /Endpoint URL/ }).fill(url);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const secret = page.getByLabel('Signing secret', { exact: true });
      await expect(secret).toHaveText(/^whsec_[A-Za-z0-9+/]+=*$/);
      await page.getByRole('button', { name: 'Copy secret' }).click();
      await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
      const card = page.getByRole('listitem', { name: url });
      await expect(card).toBeVisible();
      await scan(page, `webhooks (${size.name})`, found);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);

      // A job created now is POSTed to the endpoint by the server's worker.
      const job = await seededJob([{ pole: { pole_name: 'WH-1', line_name: 'L' } }]);
      await expect.poll(() => got.filter((d) => d.body.data.job_number === job.number).length, { timeout: 30_000 }).toBe(1);
      const first = got.find((d) => d.body.data.job_number === job.number)!;

      await card.getByRole('button', { name: 'Delivery log' }).click();
      const log = card.getByRole('list', { name: `Delivery log of ${url}` });
      const row = log.getByRole('listitem').filter({ hasText: first.id });
      await expect(row).toContainText('200');
      await expect(row).toContainText('job.created');
      await scan(page, `webhooks delivery log (${size.name})`, found);

      await row.getByRole('button', { name: `Resend job.created ${first.id}` }).click();
      await expect.poll(() => got.filter((d) => d.id === first.id).length, { timeout: 30_000 }).toBe(2);

      await card.getByRole('switch', { name: 'Send events to this endpoint' }).click();
      await expect(card.getByText('Disabled')).toBeVisible();

      await card.getByRole('button', { name: 'Delete' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete endpoint' });
      await expect(dialog).toBeVisible();
      await scan(page, `delete endpoint confirm (${size.name})`, found);
      await dialog.getByRole('button', { name: 'Delete endpoint' }).click();
      await expect(card).toHaveCount(0);
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Endpoints' })).toBeVisible();
      await expect(page.getByRole('listitem', { name: url })).toHaveCount(0);
      expect(found, found.join('\n')).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
}
