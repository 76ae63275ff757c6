import type { Browser } from "@playwright/test";
import { expectAxeClean } from "../support/axe";
import { E2E_ADMIN } from "../support/e2e-env";
import { expect, gotoHydrated, randomIp, test, signInAsAdmin } from "../support/fixtures";

test.describe.configure({ mode: "serial" });

/** A reader: no session cookie, so pages come from memory as for any visitor. */
async function readerPage(browser: Browser) {
  const context = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": randomIp() } });
  return context.newPage();
}

const slug = `gold-standard-debate-${Date.now().toString(36)}`;
const title = "The gold standard debate, in plain words";
let editUrl = "";

test("an editor writes and publishes a sponsored article with the plain form; readers get it with no JavaScript", async ({ page, browser }) => {
  // One journey through the desk and every public page it changes (article, author, blog, category, feed): longer than the default.
  test.setTimeout(90_000);
  await signInAsAdmin(page, "/admin/articles");
  await expect(page.getByRole("heading", { name: "Articles", level: 1 })).toBeVisible();
  await page.goto("/admin/articles");
  await expectAxeClean(page);

  await page.getByRole("link", { name: "New article" }).click();
  await expect(page.getByRole("heading", { name: "New article" })).toBeVisible();
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByLabel(/^Slug/).fill(slug);
  await page.getByLabel(/^Excerpt/).fill("Why some people want money backed by gold again, and what it would mean for savers and retirees.");
  await page.getByLabel("Body (Markdown)").fill("Gold has a long history as money.\n\nOur sponsor explains [how gold IRAs work](https://sponsor.example/gold-ira).");
  await page.getByLabel("Category").selectOption("Precious Metals");
  await page.getByLabel(/^Cover image \(/).fill("/images/articles/precious-metals-guide.svg");
  await page.getByLabel(/^Cover image description/).fill("Gold bars stacked in a vault");
  await page.getByLabel(/^Sponsored \(paid\) article/).check();
  await page.getByLabel("Sponsor’s name").fill("Liberty Bullion");
  await expectAxeClean(page);
  await page.getByRole("button", { name: "Publish", exact: true }).click();

  await expect(page).toHaveURL(/\/admin\/articles\/[0-9a-f-]{36}\?done=published/);
  editUrl = page.url().split("?")[0]!;
  await expect(page.getByTestId("article-status")).toContainText("Published");
  await expect(page.getByTestId("revisions")).toContainText("publish");
  await expectAxeClean(page);

  const reader = await readerPage(browser);
  const response = await reader.goto(`/articles/${slug}`);
  expect(response!.status()).toBe(200);
  const html = await response!.text();
  expect(html).not.toContain("<script src");
  await expect(reader.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  // The FTC label comes before the headline.
  await expect(reader.getByTestId("sponsored-label")).toContainText("Advertisement");
  await expect(reader.getByTestId("sponsored-label")).toContainText("Sponsored by Liberty Bullion");
  expect(html.indexOf("Advertisement")).toBeLessThan(html.indexOf(`<h1`));
  await expect(reader.locator('.prose-article a[href="https://sponsor.example/gold-ira"]')).toHaveAttribute("rel", "sponsored noopener");
  await expectAxeClean(reader);

  // The byline leads to the author's page, with their articles and Person JSON-LD.
  await reader.getByRole("link", { name: "David Caldwell" }).first().click();
  await expect(reader).toHaveURL(/\/authors\/david-caldwell$/);
  await expect(reader.getByRole("heading", { name: "David Caldwell", level: 1 })).toBeVisible();
  await expect(reader.getByRole("link", { name: title })).toBeVisible();
  const person = await reader.locator('script[type="application/ld+json"]').evaluateAll((scripts) =>
    scripts.map((script) => JSON.parse(script.textContent ?? "{}") as { "@type"?: string; name?: string; url?: string }).find((data) => data["@type"] === "Person"),
  );
  expect(person).toMatchObject({ name: "David Caldwell", url: expect.stringMatching(/\/authors\/david-caldwell$/) });
  expect(await reader.content()).not.toContain("<script src");
  await expectAxeClean(reader);

  // The blog lists it, marked as an advertisement.
  await reader.goto("/blog?category=precious-metals");
  await expect(reader.getByRole("link", { name: new RegExp(title) })).toBeVisible();
  await reader.context().close();
});

test("a new article says nothing is kept until it can be a draft, then is saved at once; a reload keeps the text", async ({ page }) => {
  await signInAsAdmin(page, "/admin/articles/new");
  await gotoHydrated(page, "/admin/articles/new");
  const status = page.getByTestId("autosave-status");
  await expect(status).toHaveText("Not saved yet: it is saved as you type once it has a title (at least 10 characters) and a slug.");
  const saves: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().endsWith("/autosave")) saves.push(new URL(request.url()).pathname);
  });
  await expect(page.getByRole("toolbar", { name: "Formatting" })).toBeVisible();
  await page.getByRole("textbox", { name: "Body (Markdown)" }).click();
  await page.keyboard.type("Typed before the title.");
  await page.getByLabel("Title", { exact: true }).fill("Kept from the first keystroke");
  await expect(status).toHaveText(/^Not saved yet/);
  expect(saves).toEqual([]);
  // The keystroke that makes it a possible draft creates the draft, and the page becomes its editor.
  const draftSlug = `kept-at-once-${Date.now().toString(36)}`;
  await page.getByLabel(/^Slug/).fill(draftSlug);
  await expect(status).toHaveText(/^Saved at \d{2}:\d{2}$/);
  expect(saves).toEqual(["/admin/articles/new/autosave"]);
  await expect(page).toHaveURL(/\/admin\/articles\/[0-9a-f-]{36}$/);
  const draftUrl = page.url();

  // Later edits autosave the same draft at its own address.
  await page.getByRole("textbox", { name: "Body (Markdown)" }).click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(" And after it.");
  await expect.poll(() => saves.length, { timeout: 15_000 }).toBe(2);
  expect(saves[1]).toBe(`${new URL(draftUrl).pathname}/autosave`);
  await expect(status).toHaveText(/^Saved at/);

  await page.reload();
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue("Kept from the first keystroke");
  await expect(page.locator('textarea[name="body"]')).toHaveValue("Typed before the title. And after it.");
  await page.goto("/admin/articles?q=Kept%20from%20the%20first");
  await expect(page.getByRole("link", { name: "Kept from the first keystroke" })).toHaveCount(1);
});

test("the article list at 390 px: each row is a card with its category and publish time in view, nothing scrolls sideways", async ({ page }) => {
  const phone = { width: 390, height: 844 };
  await page.setViewportSize(phone);
  await signInAsAdmin(page, "/admin/articles");
  const list = page.getByTestId("article-list");
  const row = list.locator("tbody tr").first();
  for (const label of ["Title", "Status", "Author", "Category", "Publish time (Eastern)"]) {
    const cell = row.locator(`td[data-label="${label}"]`);
    await expect(cell, label).toBeVisible();
    const box = (await cell.boundingBox())!;
    expect(box.x, label).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, label).toBeLessThanOrEqual(phone.width);
  }
  // No box on the way up scrolls sideways, and neither does the page.
  const scroller = await list.evaluate((table) => {
    for (let element: Element | null = table; element; element = element.parentElement) {
      if (element.scrollWidth > element.clientWidth + 1) return `${element.tagName}.${element.className}`;
    }
    return null;
  });
  expect(scroller).toBeNull();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await expectAxeClean(page);
});

test("the preview link shows the working copy to anyone holding it, never indexed; a wrong token is a 404", async ({ page, request }) => {
  await signInAsAdmin(page, editUrl.replace(/^https?:\/\/[^/]+/, ""));
  await page.getByLabel("Title", { exact: true }).fill("The gold standard debate, a revised draft");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page).toHaveURL(/\?done=saved/);
  const previewUrl = (await page.getByTestId("preview-link").getAttribute("href"))!;
  const preview = await request.get(previewUrl);
  expect(preview.status()).toBe(200);
  expect(preview.headers()["x-robots-tag"]).toBe("noindex");
  const html = await preview.text();
  expect(html).toContain("The gold standard debate, a revised draft");
  expect(html).toMatch(/<meta name="robots" content="noindex/);
  // Readers still see the published version.
  expect(await (await request.get(`/articles/${slug}`)).text()).not.toContain("a revised draft");
  // The autosave the rich editor calls: JSON with the new version; a stale version is a 409.
  const version = await page.locator('input[name="expectedVersion"]').first().inputValue();
  const fields = Object.fromEntries(
    await page.locator('[data-testid="article-form"] :is(input[type="text"], input:not([type]), textarea, select)').evaluateAll((elements) =>
      elements.map((element) => [(element as HTMLInputElement).name, (element as HTMLInputElement).value]),
    ),
  ) as Record<string, string>;
  const autosave = (expectedVersion: string) =>
    page.request.post(`${editUrl}/autosave`, { form: { ...fields, title: "The gold standard debate, autosaved", intent: "autosave", expectedVersion }, headers: { Origin: new URL(editUrl).origin } });
  const saved = await autosave(version);
  expect(saved.status()).toBe(200);
  const savedBody = (await saved.json()) as { ok: boolean; version: number; savedAt: string };
  expect(savedBody).toMatchObject({ ok: true, version: Number(version) + 1 });
  expect(Number.isNaN(Date.parse(savedBody.savedAt))).toBe(false);
  const stale = await autosave(version);
  expect(stale.status()).toBe(409);
  expect(await stale.json()).toEqual({ ok: false, code: "stale", version: Number(version) + 1 });
  expect(await (await request.get(`/articles/${slug}`)).text()).not.toContain("autosaved");
  const forged = previewUrl.replace(/token=\d+\.[\w-]+/, "token=9999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
  expect((await request.get(forged)).status()).toBe(404);
});

test("unpublishing takes the article away at once: its address answers 410 with a clear text", async ({ page, browser }) => {
  await signInAsAdmin(page, editUrl.replace(/^https?:\/\/[^/]+/, ""));
  await page.getByRole("button", { name: "Unpublish" }).click();
  await expect(page).toHaveURL(/\?done=unpublished/);
  await expect(page.getByTestId("article-status")).toContainText("Draft");
  const reader = await readerPage(browser);
  const response = await reader.goto(`/articles/${slug}`);
  expect(response!.status()).toBe(410);
  await expect(reader.getByRole("heading", { name: "This article has been removed" })).toBeVisible();
  await expectAxeClean(reader);
  expect((await reader.goto("/articles/never-was-here"))!.status()).toBe(404);
  await reader.context().close();
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("the desk works with plain forms: a draft is created, refused fields are explained, filters are a GET form", async ({ page }) => {
    await page.goto("/auth?redirectTo=%2Fadmin%2Farticles%2Fnew");
    await page.getByLabel("Email").fill(E2E_ADMIN.email);
    await page.getByLabel("Password").fill(E2E_ADMIN.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/admin\/articles\/new/);
    const draftSlug = `no-js-draft-${Date.now().toString(36)}`;
    await page.getByLabel("Title", { exact: true }).fill("A draft written without JavaScript");
    await page.getByLabel(/^Slug/).fill(draftSlug);
    // Publishing an incomplete article is refused with a message on each field, and nothing is created.
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await expect(page.getByRole("alert").first()).toContainText("Please Check the Article");
    await expect(page.getByText("The excerpt needs 40 to 300 characters.")).toBeVisible();
    await expect(page.getByLabel("Title", { exact: true })).toHaveValue("A draft written without JavaScript");
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page).toHaveURL(/\/admin\/articles\/[0-9a-f-]{36}\?done=created/);
    await expect(page.getByRole("status").first()).toContainText("Draft Created");
    await page.goto("/admin/articles");
    await page.getByLabel("Status").selectOption("draft");
    await page.getByLabel("Title contains").fill("without JavaScript");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/status=draft/);
    await expect(page.getByRole("link", { name: "A draft written without JavaScript" })).toBeVisible();
    await expect(page.getByText("1 article", { exact: true })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Pages" })).toHaveText("Page 1 of 1");
    // A draft that never was public is simply not there for readers.
    expect((await page.request.get(`/articles/${draftSlug}`)).status()).toBe(404);
  });
});
