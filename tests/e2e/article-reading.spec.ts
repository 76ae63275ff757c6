import { expect, test, type Page } from "@playwright/test";
import { expectAxeClean } from "../support/axe";
import { ARTICLES } from "../support/public-routes";
import { pickRelated } from "../../app/content/related";

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Per table: its scroll region's widths, the column's width, and what a phone reader sees per cell. */
function measureTables(page: Page) {
  return page.locator(".prose-article .table-scroll").evaluateAll((regions) =>
    regions.map((region) => {
      const column = region.closest(".prose-article")!.getBoundingClientRect();
      const cells = [...region.querySelectorAll("tbody td")];
      return {
        scrollWidth: region.scrollWidth,
        clientWidth: region.clientWidth,
        columnWidth: column.width,
        tableRight: region.querySelector("table")!.getBoundingClientRect().right,
        columnRight: column.right,
        focusable: region.getAttribute("tabindex") === "0",
        narrowestCell: Math.min(...cells.map((cell) => cell.getBoundingClientRect().width)),
        labelsShown: cells.every((cell) => {
          const label = getComputedStyle(cell, "::before").content;
          return label !== "none" && label.replace(/"/g, "") === cell.getAttribute("data-label") && label.length > 2;
        }),
        nowrap: cells.some((cell) => getComputedStyle(cell).whiteSpace === "nowrap"),
      };
    }),
  );
}

const pageOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

const WITH_TABLES = ["bonds-guide", "esg-investing", "fed-policy-guide", "generational-wealth", "precious-metals-guide"];

test.describe("article tables", () => {
  for (const slug of WITH_TABLES) {
    test(`${slug}: every table fits the column at 1366 px and stacks into labelled rows at 390 px`, async ({ page }) => {
      await page.setViewportSize(DESKTOP);
      await page.goto(`/articles/${slug}`);
      const desktop = await measureTables(page);
      expect(desktop.length).toBeGreaterThan(0);
      for (const table of desktop) {
        expect(table.nowrap).toBe(false);
        expect(table.scrollWidth, "the table does not scroll at desktop width").toBeLessThanOrEqual(table.clientWidth + 1);
        expect(table.tableRight).toBeLessThanOrEqual(table.columnRight + 1);
        expect(table.focusable).toBe(true);
      }

      await page.setViewportSize(PHONE);
      const phone = await measureTables(page);
      for (const table of phone) {
        expect(table.scrollWidth, "the table fits a phone").toBeLessThanOrEqual(table.clientWidth + 1);
        // Stacked: each cell spans the card and says which column it belongs to.
        expect(table.narrowestCell).toBeGreaterThan(table.columnWidth * 0.8);
        expect(table.labelsShown).toBe(true);
        expect(table.focusable).toBe(true);
      }
      expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
    });
  }

  test("the bonds table shows the Corporate bonds column whole at desktop width", async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto("/articles/bonds-guide");
    const header = page.locator(".prose-article th").filter({ hasText: /^Corporate bonds$/ });
    await header.scrollIntoViewIfNeeded();
    await expect(header).toBeInViewport({ ratio: 1 });
  });
});

test.describe("the end of every article", () => {
  for (const article of ARTICLES) {
    test(`${article.slug}: subscribe block and three related articles, no script`, async ({ page }) => {
      await page.goto(`/articles/${article.slug}`);
      const subscribe = page.getByTestId("article-subscribe");
      await expect(subscribe.getByRole("link", { name: "Get the newsletter" })).toHaveAttribute("href", "/home#newsletter");
      await expect(subscribe.getByRole("link", { name: "Text me market alerts" })).toHaveAttribute("href", "/opt-in");
      const links = page.getByTestId("related-articles").getByRole("heading", { level: 3 }).getByRole("link");
      await expect(links).toHaveCount(3);
      const hrefs = await links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute("href")));
      expect(new Set(hrefs).size).toBe(3);
      expect(hrefs).not.toContain(`/articles/${article.slug}`);
      // The related rule (app/content/related.ts) applied to the blog's newest-first list.
      const newestFirst = [...ARTICLES].sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));
      expect(hrefs).toEqual(pickRelated(newestFirst, article).map((other) => `/articles/${other.slug}`));
      // Prerendered and script-free (JSON-LD is data, not script).
      await expect(page.locator('script:not([type="application/ld+json"])')).toHaveCount(0);
    });
  }

  test("an article at phone size: no page overflow and no axe violations", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto("/articles/precious-metals-guide");
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
    await expectAxeClean(page);
  });
});

test("the Privacy Policy says what the newsletter form collects, phone number included", async ({ page }) => {
  await page.goto("/privacy");
  const item = page.getByRole("listitem").filter({ hasText: "Newsletter sign-up." });
  await expect(item).toContainText("your e-mail address and your phone number");
  await expect(item).toContainText("We text your phone number only if you also tick the SMS consent box");
  // The form really asks for those four things.
  await page.goto("/home");
  const form = page.locator("#newsletter form");
  for (const label of ["First Name", "Last Name", "Email", "Phone"]) {
    await expect(form.getByLabel(label, { exact: true })).toHaveAttribute("required", "");
  }
});
