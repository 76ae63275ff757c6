import { expectAxeClean } from "../support/axe";
import { expect, gotoHydrated, randomIp, signInAsAdmin, test } from "../support/fixtures";

// The last 30 minutes on /admin/analytics (decision 156): at a phone's width, axe-clean, fetched
// again alone while the tab is visible, and readable with a Reload link when JavaScript is off.
test.describe("the last 30 minutes on /admin/analytics", () => {
  test("at 390 px: the section, its chart named in words, axe-clean, and it fetches itself again", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAsAdmin(page, "/admin/analytics");
    await gotoHydrated(page, "/admin/analytics");
    const live = page.getByTestId("analytics-live");
    await expect(live.getByRole("heading", { name: "Last 30 minutes" })).toBeVisible();
    await expect(live.getByRole("img", { name: /^Page views per minute, \d\d:\d\d to \d\d:\d\d$/ })).toBeVisible();
    await expect(live).toContainText("lag by at most that much");
    await expect(live.getByRole("table", { name: "Top pages of the last 30 minutes" })).toBeVisible();
    // The chart scales to the screen: nothing wider than the page.
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await expectAxeClean(page, "the live section", { include: '[data-testid="analytics-live"]' });

    // Coming back to the tab fetches the section alone (the timer does the same every 20 s).
    const before = await page.getByTestId("analytics-live-at").textContent();
    await page.waitForTimeout(1100);
    const fetched = page.waitForResponse(
      (response) => new URL(response.url()).pathname.startsWith("/admin/analytics/live") && response.status() === 200,
    );
    await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
    await fetched;
    await expect(page.getByTestId("analytics-live-at")).not.toHaveText(before!);
  });

  test("without JavaScript: readable, with a Reload link to the same range", async ({ browser, page }) => {
    await signInAsAdmin(page, "/admin/analytics");
    const context = await browser.newContext({
      javaScriptEnabled: false,
      storageState: await page.context().storageState(),
      extraHTTPHeaders: { "X-Forwarded-For": randomIp() },
    });
    const plain = await context.newPage();
    await plain.goto("/admin/analytics?from=2026-11-01&to=2026-11-27");
    const live = plain.getByTestId("analytics-live");
    await expect(live.getByTestId("analytics-live-views")).toHaveText(/^\d[\d,]*$/);
    await live.getByRole("link", { name: "Reload" }).click();
    await expect(plain).toHaveURL(/\/admin\/analytics\?from=2026-11-01&to=2026-11-27#analytics-live-heading$/);
    await expect(live.getByRole("heading", { name: "Last 30 minutes" })).toBeVisible();
    await context.close();
  });
});
