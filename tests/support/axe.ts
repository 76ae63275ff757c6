import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** WCAG 2.2 AA and every level below it, as the product promises. */
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * The longest the check waits for animations to end. A paused animation or one the page keeps
 * restarting never settles, and the journey should then be judged, not time out.
 */
const ANIMATION_WAIT_LIMIT_MS = 3_000;

type Scope = {
  /** Only this part of the page (a section that loads on its own). */
  include?: string;
  /** Leave out a part that is not the site's page (an e-mail shown in a preview frame). */
  exclude?: string;
};

/**
 * Fails with every violation axe finds on the page at rest, each with the elements it names.
 * At rest: a notice fading in is half-transparent over the header for 400 ms, and axe would judge
 * the blend of the two, a colour nobody reads. Endless or paused animations (a spinner) are not
 * waited for, and no wait lasts longer than ANIMATION_WAIT_LIMIT_MS.
 */
export async function expectAxeClean(
  page: Page,
  label = new URL(page.url()).pathname,
  { include, exclude }: Scope = {},
) {
  await page.evaluate(
    (limitMs) =>
      Promise.race([
        Promise.all(
          document
            .getAnimations()
            .filter(
              (animation) =>
                animation.playState === "running" &&
                Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Infinity),
            )
            .map((animation) => animation.finished.catch(() => undefined)),
        ),
        new Promise((resolve) => setTimeout(resolve, limitMs)),
      ]),
    ANIMATION_WAIT_LIMIT_MS,
  );
  const builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
  if (include) builder.include(include);
  if (exclude) builder.exclude(exclude);
  const results = await builder.analyze();
  expect(
    results.violations.map((v) => `${label} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
  ).toEqual([]);
}
