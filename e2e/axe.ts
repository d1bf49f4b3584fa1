import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** WCAG 2.x A/AA: what every screen must pass (e2e/a11y.spec.ts). */
export const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
/** axe's own good practice on top (headings, landmarks, skip links): the list screens pass it too. */
export const WCAG_AND_BEST_PRACTICE = [...WCAG, 'best-practice'];

/**
 * Waits until no transition or finite animation runs (a modal fading in, a drawer sliding), so
 * that axe reads the final colours. Two frames first: a transition starts on the frame after the
 * element mounts. Endless animations (a loader, a skeleton) are not waited for: they never end.
 */
export async function transitionsDone(page: Page) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.waitForFunction(
    () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
    undefined,
    { polling: 'raf' },
  );
}

/**
 * axe-core's violations on the page as it is now, once transitions are done. Legacy mode runs
 * axe.run in the page itself: the default (axe.runPartial per frame, then axe.finishRun in a
 * new blank page with axe injected a second time) took twice as long per scan, for frames of
 * other origins the app does not have. Same rules, same results. `resultTypes: ['violations']`:
 * axe still runs every rule and reports every violation, but keeps the details of one node per
 * passing or inapplicable rule instead of all of them: a scan of the seeded job's page took
 * 1.3–1.5 s, and 0.9–1.2 s so. options() first: it replaces the options withTags() set.
 */
export async function axeViolations(page: Page, tags: string[] = WCAG) {
  await transitionsDone(page);
  const { violations } = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).withTags(tags).setLegacyMode().analyze();
  return violations;
}

/**
 * axe-core on the page as it is now; what it finds is added to `found` as one line per rule
 * (screen, rule, the first nodes and why), so that one test reports every screen at once.
 */
export async function scan(page: Page, screen: string, found: string[], tags: string[] = WCAG) {
  for (const v of await axeViolations(page, tags)) {
    const where = v.nodes
      .slice(0, 3)
      .map((n) => `${n.target.join(' ')}${n.failureSummary ? ` (${n.failureSummary.split('\n').slice(1).join(' ').trim()})` : ''}`)
      .join('; ');
    found.push(`${screen}: ${v.id} — ${v.help} — ${where}`);
  }
}
