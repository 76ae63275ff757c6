import type { Browser, Page } from "@playwright/test";
import { expectAxeClean } from "../support/axe";
import { E2E_ADMIN } from "../support/e2e-env";
import { expect, gotoHydrated, randomIp, test } from "../support/fixtures";
import { nuErrors } from "../support/nu-check";
import { publishArticle, unpublishArticle } from "../support/publish-article";

/**
 * The archive at size (issue 26): thirteen articles in one category make /blog and that category
 * two pages each (12 cards per page; /blog's featured article is above its grid). They are taken
 * off the site again at the end.
 */
test.describe.configure({ mode: "serial" });

const CATEGORY = { name: "Wealth Building", slug: "wealth-building" };
const WORD = "quokkanomics";
const DRAFT_WORD = "wombatonomy";
const published: string[] = [];

async function signedInPage(browser: Browser) {
  const context = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": randomIp() } });
  const page = await context.newPage();
  await gotoHydrated(page, "/auth?redirectTo=%2Fadmin%2Farticles");
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/articles/);
  return page;
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  const page = await signedInPage(browser);
  for (let n = 1; n <= 13; n++) {
    const body = n === 7 ? `The first paragraph of a paging test.\n\nA word found only here: ${WORD} explained.` : "The first paragraph of a paging test.\n\nMore about wealth.";
    published.push(await publishArticle(page, { title: `Paging test article number ${n} of thirteen`, slug: `paging-test-${n}`, body, category: CATEGORY.name }));
  }
  // A draft with its own word: search never finds it.
  await page.goto("/admin/articles/new");
  const authorId = await page.locator('select[name="authorId"]').inputValue();
  const response = await page.request.post("/admin/articles/new", {
    headers: { Origin: new URL(page.url()).origin },
    form: { intent: "save", title: "A draft that search must never find", slug: "paging-test-draft", excerpt: "A draft.", body: `Draft text with ${DRAFT_WORD}.`, category: CATEGORY.name, authorId },
    maxRedirects: 0,
  });
  // The draft stays a draft (the desk deletes nothing); nobody but the desk sees it.
  expect(response.status()).toBe(302);
  await page.context().close();
});

test.afterAll(async ({ browser }) => {
  test.setTimeout(180_000);
  const page = await signedInPage(browser);
  for (const editPath of published.splice(0)) await unpublishArticle(page, editPath);
  await page.context().close();
});

async function pageThrough(page: Page, first: string, expected: { pages: number; canonical: (n: number) => string }) {
  await page.goto(first);
  for (let n = 1; n <= expected.pages; n++) {
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", new RegExp(`${expected.canonical(n).replace(/[?]/g, "\\?")}$`));
    await expect(page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: `Page ${n}` })).toHaveAttribute("aria-current", "page");
    await expect(page.locator('head link[rel="prev"]')).toHaveCount(n > 1 ? 1 : 0);
    await expect(page.locator('head link[rel="next"]')).toHaveCount(n < expected.pages ? 1 : 0);
    const cards = await page.locator("main article, main [data-slot=card]").count();
    expect(cards).toBeGreaterThan(0);
    if (n < expected.pages) {
      await page.getByRole("link", { name: "Next page" }).click();
      await expect(page).toHaveURL(new RegExp(`${expected.canonical(n + 1).replace(/[?]/g, "\\?")}$`));
    } else {
      await expect(page.getByRole("link", { name: "Next page" })).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Load More Articles" })).toHaveCount(0);
    }
  }
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("pages through /blog and a category to the last page; past it is a 404", async ({ page, request }) => {
      await pageThrough(page, "/blog", { pages: 2, canonical: (n) => (n === 1 ? "/blog" : `/blog?page=${n}`) });
      // The featured article stays on page 1 only.
      await expect(page.getByRole("heading", { name: "Featured Article" })).toHaveCount(0);
      await pageThrough(page, `/blog?category=${CATEGORY.slug}`, { pages: 2, canonical: (n) => (n === 1 ? `/blog?category=${CATEGORY.slug}` : `/blog?category=${CATEGORY.slug}&page=${n}`) });
      // Load More is a link to the next page.
      await page.goto("/blog");
      await page.getByRole("link", { name: "Load More Articles" }).click();
      await expect(page).toHaveURL(/\/blog\?page=2$/);
      for (const past of ["/blog?page=3", `/blog?category=${CATEGORY.slug}&page=3`, "/blog?page=0", "/blog?page=two"]) expect((await request.get(past)).status(), past).toBe(404);
      const one = await request.get("/blog?page=1", { maxRedirects: 0 });
      expect(one.status()).toBe(301);
      expect(one.headers().location).toBe("/blog");
    });

    test("search from the top bar finds an article by a word of its body; a draft is never found", async ({ page }) => {
      await page.goto("/about");
      const box = page.getByRole("search", { name: "Search articles" }).first();
      await box.getByRole("searchbox").fill(WORD);
      await box.getByRole("button", { name: "Search" }).click();
      await expect(page).toHaveURL(new RegExp(`/search\\?q=${WORD}$`));
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
      const result = page.getByRole("link", { name: "Paging test article number 7 of thirteen" });
      await expect(result).toBeVisible();
      await expect(page.locator("main mark").first()).toHaveText(WORD);
      await result.click();
      await expect(page).toHaveURL(/\/articles\/paging-test-7$/);

      await page.goto(`/search?q=${DRAFT_WORD}`);
      await expect(page.getByText(`No article matches “${DRAFT_WORD}”`)).toBeVisible();
    });
  });
}

test("hostile queries answer a page, never a 500", async ({ request }) => {
  for (const q of ['"', "&|!:*()", "x".repeat(10_000), "gold' OR 1=1; --", "<script>alert(1)</script>", "retire*"]) {
    const response = await request.get(`/search?q=${encodeURIComponent(q)}`);
    // nginx refuses an address this long itself (414); the app answers 10,000 characters with a page (search.server.test.ts).
    expect(response.status(), q.slice(0, 30)).toBe(q.length > 8_000 ? 414 : 200);
    expect(await response.text()).not.toContain("<script>alert(1)</script>");
  }
});

test("the article's date opens its month's archive", async ({ page }) => {
  await page.goto("/articles/paging-test-1");
  const date = page.locator("header").getByRole("link").filter({ has: page.locator("time") });
  await date.click();
  await expect(page).toHaveURL(/\/blog\/\d{4}\/\d{2}$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Articles from /);
  await expect(page.getByRole("link", { name: /Paging test article number 13 of thirteen/ })).toBeVisible();
  await expectAxeClean(page);
  expect(await nuErrors(await (await page.request.get(page.url())).text())).toEqual([]);
});

test("the feeds carry the latest items with full content; the category page links its own feed", async ({ page, request }) => {
  const xml = await (await request.get("/rss.xml")).text();
  const items = xml.match(/<item>/g) ?? [];
  expect(items.length).toBeGreaterThan(0);
  expect(items.length).toBeLessThanOrEqual(20);
  expect(xml).toContain("<content:encoded>");
  await page.goto(`/blog?category=${CATEGORY.slug}`);
  const feed = page.locator(`head link[rel="alternate"][href="/rss/${CATEGORY.slug}.xml"]`);
  await expect(feed).toHaveCount(1);
  const category = await request.get(`/rss/${CATEGORY.slug}.xml`);
  expect(category.headers()["content-type"]).toContain("application/rss+xml");
  const categoryXml = await category.text();
  expect(categoryXml).toContain("Paging test article number 13 of thirteen");
  expect((await request.get("/rss/no-such-category.xml")).status()).toBe(404);
});

for (const path of ["/search", `/search?q=${WORD}`, "/search?q=nothing-matches-this", "/blog?page=2", `/blog?category=${CATEGORY.slug}&page=2`, "/authors/sarah-whitfield"]) {
  test(`${path}: valid HTML, no axe violations`, async ({ page, request }) => {
    await page.goto(path);
    await expectAxeClean(page);
    expect(await nuErrors(await (await request.get(path)).text())).toEqual([]);
  });
}
