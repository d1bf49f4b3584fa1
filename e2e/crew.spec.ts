import type { Page } from '@playwright/test';
import { choose, expect, login, test, unique, USERS } from './fixtures';
import { MSG } from '../src/shared/messages';

/** Types into the search box and waits past the 1-second debounce/throttle. */
async function searchFor(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Search crew' }).fill(text);
}

test.describe('crew roster', () => {
  test('an office manager adds a lineman under a foreman, finds them, deactivates them and finds them under Inactive', async ({ page }) => {
    const last = unique('Newhire').replace(/-/g, '');
    const email = `${last.toLowerCase()}@example.com`;
    await login(page, USERS.office);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Crew' }).click();
    await expect(page).toHaveURL(/\/crew$/);
    await expect(page.getByRole('heading', { name: 'Crew' })).toBeVisible();
    for (const header of ['Name', 'Role', 'Crew', 'Cell #', 'Email', 'Status', 'Date Added']) {
      await expect(page.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
    }
    // The list opens on Active: the seeded inactive member is not shown.
    await expect(page.getByRole('radio', { name: 'Active', exact: true })).toBeChecked();
    await expect(page.getByRole('cell', { name: 'Liam Lineman' })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'Ray Retired' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await expect(dialog.getByRole('switch', { name: 'Status' })).toBeChecked();
    const save = dialog.getByRole('button', { name: 'Save' });
    await expect(save).toBeDisabled();

    await choose(page, dialog, 'Role', 'Lineman');
    await dialog.getByRole('textbox', { name: 'First Name' }).fill('Nina');
    await dialog.getByRole('textbox', { name: 'Last Name' }).fill(last);
    await dialog.getByRole('textbox', { name: 'Email' }).fill(email);
    // A lineman needs a crew foreman: Save stays disabled and the field says so once left.
    await dialog.getByRole('combobox', { name: 'Crew Foreman' }).focus();
    await dialog.getByRole('textbox', { name: 'Phone' }).click();
    await expect(dialog.getByText(MSG.foreman)).toBeVisible();
    await expect(save).toBeDisabled();
    await choose(page, dialog, 'Crew Foreman', 'Frank Foreman');

    // The phone rule: 9 digits is refused with the spec message, shown on blur.
    await dialog.getByRole('textbox', { name: 'Phone' }).fill('617555012');
    await dialog.getByRole('textbox', { name: 'First Name' }).click();
    await expect(dialog.getByText(MSG.phone)).toBeVisible();
    await expect(save).toBeDisabled();
    await dialog.getByRole('textbox', { name: 'Phone' }).fill('6175550123');
    await expect(dialog.getByText(MSG.phone)).toHaveCount(0);
    await expect(save).toBeEnabled();
    await save.click();
    await expect(dialog).toHaveCount(0);

    // The new member is in the list, under Frank.
    await searchFor(page, last);
    const row = page.getByRole('row', { name: new RegExp(`Nina ${last}`) });
    await expect(row).toBeVisible();
    await expect(row).toContainText('Lineman');
    await expect(row).toContainText('Frank Foreman');
    await expect(row).toContainText('6175550123');
    await expect(row).toContainText('Active');
    await expect(page.getByRole('row')).toHaveCount(2); // header + the match

    // Deactivate them in Edit User: the email cannot be changed there.
    await row.click();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    await expect(edit.getByRole('textbox', { name: 'Email' })).toHaveAttribute('readonly', '');
    await expect(edit.getByRole('button', { name: 'Save' })).toBeDisabled();
    await edit.getByRole('switch', { name: 'Status' }).uncheck({ force: true });
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toHaveCount(0);

    // Gone from Active, found under Inactive.
    await expect(page.getByRole('row', { name: new RegExp(`Nina ${last}`) })).toHaveCount(0);
    await page.getByText('Inactive', { exact: true }).click();
    const inactive = page.getByRole('row', { name: new RegExp(`Nina ${last}`) });
    await expect(inactive).toBeVisible();
    await expect(inactive).toContainText('Inactive');
    await page.getByText('All', { exact: true }).click();
    await expect(page.getByRole('row', { name: new RegExp(`Nina ${last}`) })).toBeVisible();
  });

  test('closing a changed form asks first; Reset Password tells the user to check their email', async ({ page }) => {
    await login(page, USERS.admin);
    await page.goto('/crew');
    await page.getByRole('row', { name: /Wendy Wire/ }).click();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    await edit.getByRole('button', { name: 'Reset Password' }).click();
    await expect(edit.getByRole('status')).toHaveText(MSG.crewResetSent);

    await edit.getByRole('textbox', { name: 'First Name' }).fill('Wendolyn');
    await edit.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(page.getByText(MSG.unsavedChanges)).toBeVisible();
    await page.getByRole('button', { name: 'Keep editing' }).click();
    await expect(edit.getByRole('textbox', { name: 'First Name' })).toHaveValue('Wendolyn');
    await edit.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByRole('button', { name: 'Close anyway' }).click();
    await expect(page.getByRole('dialog', { name: 'Edit User' })).toHaveCount(0);
    await expect(page.getByRole('cell', { name: 'Wendy Wire' })).toBeVisible();
  });

  test("an office manager sees an Admin's account read-only", async ({ page }) => {
    await login(page, USERS.office);
    await page.goto('/crew');
    await page.getByRole('row', { name: /Avery Admin/ }).click();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    await expect(edit.getByText(MSG.adminOnlyEdit)).toBeVisible();
    await expect(edit.getByRole('textbox', { name: 'First Name' })).toBeDisabled();
    await expect(edit.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  test('a duplicate email is refused with the server message', async ({ page }) => {
    await login(page, USERS.office);
    await page.goto('/crew');
    await page.getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await choose(page, dialog, 'Role', 'Foreman');
    await dialog.getByRole('textbox', { name: 'First Name' }).fill('Dupe');
    await dialog.getByRole('textbox', { name: 'Last Name' }).fill('Person');
    await dialog.getByRole('textbox', { name: 'Email' }).fill('lineman@example.com');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByRole('alert')).toContainText(MSG.emailTaken);
    await expect(dialog).toBeVisible();
  });

  test('sorting by a header is remembered across visits', async ({ page }) => {
    await login(page, USERS.admin);
    await page.goto('/crew');
    const nameHeader = page.getByRole('columnheader', { name: 'Name' });
    const names = async () => (await page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.querySelector('td')?.textContent ?? '')));
    const isSorted = (list: string[], dir: 1 | -1) => list.every((v, i) => i === 0 || dir * list[i - 1].toLowerCase().localeCompare(v.toLowerCase(), 'en') <= 0);
    // Default: first name, descending.
    await expect(nameHeader).toHaveAttribute('aria-sort', 'descending');
    await expect(page.getByRole('cell', { name: 'Ava Apprentice' })).toBeVisible();
    expect(isSorted(await names(), -1)).toBe(true);
    await nameHeader.getByRole('button').click();
    await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
    expect(isSorted(await names(), 1)).toBe(true);
    // A new column starts ascending.
    await page.getByRole('columnheader', { name: 'Email' }).getByRole('button').click();
    await expect(page.getByRole('columnheader', { name: 'Email' })).toHaveAttribute('aria-sort', 'ascending');
    await expect(nameHeader).toHaveAttribute('aria-sort', 'none');
    await nameHeader.getByRole('button').click();
    await page.reload();
    await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
    await expect(page.getByRole('cell', { name: 'Ava Apprentice' })).toBeVisible();
    expect(isSorted(await names(), 1)).toBe(true);
  });

  test('a foreman may view the crew but not add or edit; a lineman sees nothing of the page', async ({ page }) => {
    await login(page, USERS.foreman);
    await page.goto('/crew');
    await expect(page.getByRole('heading', { name: 'Crew' })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'Liam Lineman' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add User' })).toHaveCount(0);
    await page.getByRole('cell', { name: 'Liam Lineman' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await page.context().clearCookies();
    await login(page, USERS.lineman);
    await page.goto('/crew');
    await expect(page.getByRole('heading', { name: 'Crew' })).toHaveCount(0);
    await expect(page.getByRole('table')).toHaveCount(0);
  });

  test('works on a phone: one card per member, a sort picker, and a full-screen modal', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await login(page, USERS.office);
    await page.goto('/crew');
    await expect(page.getByRole('heading', { name: 'Crew' })).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    await page.getByRole('button', { name: /^Liam Lineman/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit User' });
    await expect(dialog.getByRole('button', { name: 'Save' })).toBeVisible();
    const box = await dialog.boundingBox();
    expect(box!.width).toBeGreaterThanOrEqual(370);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(dialog).toHaveCount(0);
    // Sorting by Email (ascending) orders the cards by address.
    // The phone's own picker (a native select).
    await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Email' });
    await expect(page.getByRole('combobox', { name: 'Sort by' })).toHaveValue('email');
    const emails = await page.getByRole('button').filter({ hasText: /@/ }).evaluateAll((cards) => cards.map((c) => /[^\s·]+@[^\s·]+/.exec((c as HTMLElement).innerText)?.[0] ?? ''));
    expect(emails.length).toBeGreaterThan(3);
    expect(emails).toEqual([...emails].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase(), 'en')));
  });
});
