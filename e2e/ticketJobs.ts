import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** Where the ticket specs find a job's tickets: its table, a row, the ticket window. */

// The window's title is 'Edit Ticket' or 'Create Ticket'; a confirmation over it ("Delete Ticket") is
// another dialog and must not match, or a check that the window closed sees two.
export const ticketWindow = (page: Page) => page.getByRole('dialog', { name: /^(Edit|Create) Ticket$/ });
/** A ticket's row in the desktop table. */
export const row = (page: Page, pole: string) => page.locator('[data-ticket-id]').filter({ has: page.getByRole('cell', { name: pole, exact: true }) });

export async function openJob(page: Page, jobId: number) {
  await page.goto(`/job?id=${jobId}`);
  await expect(page.getByRole('table', { name: 'Tickets' })).toBeVisible({ timeout: 45_000 });
}
