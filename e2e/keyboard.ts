import { expect, type Page } from '@playwright/test';

/** Keyboard and focus helpers of the accessibility journeys (a11y-keyboard, a11y-paged-lists). */

export const SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const SHOTS = process.env.E2E_SHOTS; // a folder: screenshots to look at, as a person would
export async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

/** What has focus: enough to tell a skip link, a row, a map point or a field apart. */
export interface Focused {
  tag: string;
  role: string | null;
  label: string | null;
  /** The aria-label, else the text of the field's <label>. */
  name: string;
  text: string;
  ticketId: string | null;
  inMain: boolean;
}
export const focused = (page: Page): Promise<Focused> =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      tag: el?.tagName.toLowerCase() ?? '',
      role: el?.getAttribute('role') ?? null,
      label: el?.getAttribute('aria-label') ?? null,
      name: (el?.getAttribute('aria-label') ?? (el as HTMLInputElement | null)?.labels?.[0]?.textContent ?? '').trim(),
      text: (el?.textContent ?? '').trim().slice(0, 80),
      ticketId: el?.getAttribute('data-ticket-id') ?? null,
      inMain: Boolean(el?.closest('main')),
    };
  });

/** Presses Tab until what has focus matches; returns how many presses it took. */
export async function tabUntil(page: Page, matches: (f: Focused) => boolean, what: string, max = 80): Promise<number> {
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press('Tab');
    if (matches(await focused(page))) return i;
  }
  throw new Error(`${what}: not reached in ${max} Tab presses`);
}

/** WCAG 2.4.11/1.4.11: an outline at least 2 px wide whose colour stands 3 : 1 against the page. */
async function focusRingOf(page: Page) {
  return page.evaluate(() => {
    // A field of several parts (a password and its eye button) wears its ring round the whole
    // field (.mantine-Input-input, app.css): measure that, not the inner <input>.
    const active = document.activeElement as HTMLElement;
    const el = (active.closest('.mantine-Input-input') as HTMLElement | null) ?? active;
    const s = getComputedStyle(el);
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const lum = (c: string) => {
      const [r, g, b] = rgb(c).map((v) => {
        const x = v / 255;
        return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const page = getComputedStyle(document.body).backgroundColor;
    const [a, b] = [lum(s.outlineColor), lum(page.startsWith('rgba(0, 0, 0, 0)') ? 'rgb(255, 255, 255)' : page)];
    const contrast = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    return { style: s.outlineStyle, width: parseFloat(s.outlineWidth), contrast: Math.round(contrast * 10) / 10 };
  });
}
export async function expectFocusRing(page: Page, what: string) {
  const ring = await focusRingOf(page);
  expect(ring.style, `${what}: outline style`).not.toBe('none');
  expect(ring.width, `${what}: outline width (px)`).toBeGreaterThanOrEqual(2);
  expect(ring.contrast, `${what}: outline contrast against the page`).toBeGreaterThanOrEqual(3);
}
