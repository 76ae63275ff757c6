import type { Browser, Page } from "@playwright/test";
import { ADMIN_HOME, ADMIN_NAV, ADMIN_NAV_GROUPS } from "../../app/config/admin-nav";
import { expectAxeClean } from "../support/axe";
import { expect, gotoHydrated, randomIp, signInAsAdmin, test } from "../support/fixtures";

/** The admin's session cookies, from a sign-in with JavaScript on. */
async function adminCookies(browser: Browser) {
  const context = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": randomIp() } });
  const page = await context.newPage();
  await signInAsAdmin(page, "/admin");
  const cookies = await context.cookies();
  await context.close();
  return cookies;
}

const GROUP_LABELS = ADMIN_NAV_GROUPS.map((group) => group.label);

async function noSidewaysScroll(page: Page, path: string) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), path).toBeLessThanOrEqual(0);
}

/** A signed-in admin's page at this width, with JavaScript on or off. */
async function adminAt(browser: Browser, width: number, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ javaScriptEnabled, viewport: { width, height: width > 1000 ? 768 : 844 }, extraHTTPHeaders: { "X-Forwarded-For": randomIp() } });
  await context.addCookies(await adminCookies(browser));
  return { page: await context.newPage(), close: () => context.close() };
}

test.describe("the admin menu", () => {
  // One journey per group of the menu, so the two workers share the admin's pages (each page is
  // checked by axe: about 10 s a page with both workers busy). The staff home goes with the first.
  // (In a file of their own: admin-pages.spec.ts runs its journeys one after another.)
  const PAGE_SETS = ADMIN_NAV_GROUPS.map((group, index) => ({
    label: group.label,
    paths: [...(index === 0 ? [ADMIN_HOME.to] : []), ...ADMIN_NAV.filter((item) => item.group === group.id).map((item) => item.to)],
  }));

  for (const { label: groupLabel, paths } of PAGE_SETS) {
    test(`at 1366 px (${groupLabel}): a side menu of named groups beside each page, the current page marked, noindex, axe-clean`, async ({ browser }) => {
      test.setTimeout(120_000);
      const { page, close } = await adminAt(browser, 1366, true);
      for (const path of paths) {
        await gotoHydrated(page, path);
        const side = page.getByTestId("admin-side-menu");
        await expect(side, path).toBeVisible();
        await expect(page.getByTestId("admin-menu-disclosure"), path).toBeHidden();
        await expect(side.locator("p")).toHaveText(GROUP_LABELS);
        const current = side.locator('[aria-current="page"]');
        await expect(current, path).toHaveCount(1);
        await expect(current, path).toHaveAttribute("href", path);
        // Beside the page, not above it: the heading starts right of the menu, on the first screen.
        const menuBox = (await side.boundingBox())!;
        const headingBox = (await page.locator("h1").first().boundingBox())!;
        expect(headingBox.x, path).toBeGreaterThanOrEqual(menuBox.x + menuBox.width);
        expect(headingBox.y, path).toBeLessThan(300);
        await noSidewaysScroll(page, path);
        await expect(page.locator('meta[name="robots"]'), path).toHaveAttribute("content", /noindex/);
        await expectAxeClean(page, `1366 ${path}`);
      }
      await close();
    });

    test(`at 390 px (${groupLabel}): one closed disclosure naming the current page above the content, axe-clean`, async ({ browser }) => {
      test.setTimeout(120_000);
      const { page, close } = await adminAt(browser, 390, true);
      for (const path of paths) {
        await gotoHydrated(page, path);
        const menu = page.getByTestId("admin-menu-disclosure");
        await expect(page.getByTestId("admin-side-menu"), path).toBeHidden();
        await expect(menu.locator("details"), path).not.toHaveAttribute("open");
        const label = path === ADMIN_HOME.to ? ADMIN_HOME.label : ADMIN_NAV.find((item) => item.to === path)!.label;
        await expect(menu.locator("summary"), path).toHaveText(new RegExp(`^Admin menu: ${label}\\W*$`));
        await expect(menu.getByRole("link"), path).toHaveCount(0);
        // The page's own heading is on the first screen, right under the one-line menu.
        expect((await page.locator("h1").first().boundingBox())!.y, path).toBeLessThan(400);
        await noSidewaysScroll(page, path);
        await expectAxeClean(page, `390 ${path}`);
      }
      await close();
    });
  }

  test("at 1366 px, below an entry and scrolled down a long page: the entry marked, the menu in view under the top bar", async ({ browser }) => {
    const { page, close } = await adminAt(browser, 1366, true);
    await gotoHydrated(page, "/admin/articles/new");
    await expect(page.getByTestId("admin-side-menu").locator('[aria-current="page"]')).toHaveText("Articles");
    await page.evaluate(() => window.scrollTo(0, 500));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(500);
    const bar = (await page.getByRole("banner").boundingBox())!;
    const menu = (await page.getByTestId("admin-side-menu").boundingBox())!;
    expect(menu.y).toBeGreaterThanOrEqual(bar.y + bar.height);
    expect(menu.y + menu.height).toBeLessThanOrEqual(768);
    await expectAxeClean(page, "1366 /admin/articles/new, scrolled");
    await close();
  });

  test("at 390 px, the disclosure opened: every group, the current page marked, axe-clean", async ({ browser }) => {
    const last = ADMIN_NAV.at(-1)!;
    const { page, close } = await adminAt(browser, 390, true);
    await gotoHydrated(page, last.to);
    const menu = page.getByTestId("admin-menu-disclosure");
    await menu.locator("summary").click();
    await expect(menu.locator("p")).toHaveText(GROUP_LABELS);
    await expect(menu.locator('[aria-current="page"]')).toHaveText(last.label);
    await expectAxeClean(page, "390, menu open");
    await close();
  });

  for (const width of [390, 1366]) {
    test(`works without JavaScript at ${width} px`, async ({ browser }) => {
      const { page, close } = await adminAt(browser, width, false);
      await page.goto("/admin");
      const menu = page.getByTestId(width > 1000 ? "admin-side-menu" : "admin-menu-disclosure");
      if (width < 1000) {
        await expect(menu.getByRole("link", { name: "Alerts" })).toBeHidden();
        await menu.locator("summary").click();
      }
      await expect(menu.getByRole("link", { name: "Dashboard" })).toHaveAttribute("aria-current", "page");
      await menu.getByRole("link", { name: "Alerts" }).click();
      await expect(page).toHaveURL(/\/admin\/alerts$/);
      await expect(page.getByRole("navigation", { name: "Admin" }).locator('[aria-current="page"]')).toHaveText("Alerts");
      if (width < 1000) await expect(page.getByTestId("admin-menu-disclosure").locator("summary")).toHaveText(/^Admin menu: Alerts\W*$/);
      await close();
    });
  }
});
