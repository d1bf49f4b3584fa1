import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** WCAG 2.x A/AA: what every screen must pass (e2e/a11y.spec.ts). */
export const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
/** axe's own good practice on top (headings, landmarks, skip links): the list screens pass it too. */
export const WCAG_AND_BEST_PRACTICE = [...WCAG, 'best-practice'];

/**
 * axe-core on the page as it is now; what it finds is added to `found` as one line per rule
 * (screen, rule, the first nodes and why), so that one test reports every screen at once.
 */
export async function scan(page: Page, screen: string, found: string[], tags: string[] = WCAG) {
  // Let transitions (modals fading in) finish, so colours are the final ones.
  await page.waitForTimeout(300);
  const { violations } = await new AxeBuilder({ page }).withTags(tags).analyze();
  for (const v of violations) {
    const where = v.nodes
      .slice(0, 3)
      .map((n) => `${n.target.join(' ')}${n.failureSummary ? ` (${n.failureSummary.split('\n').slice(1).join(' ').trim()})` : ''}`)
      .join('; ');
    found.push(`${screen}: ${v.id} — ${v.help} — ${where}`);
  }
}
