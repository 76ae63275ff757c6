import type { APIRequestContext, Browser, Page } from "@playwright/test";
import sharp from "sharp";
import { expect, gotoHydrated, randomIp, test, signInAsAdmin } from "../support/fixtures";
import { publishArticle, unpublishArticle } from "../support/publish-article";

/** What a test published, taken off the site when it ends (passed or not): see unpublishArticle. */
const published: string[] = [];
test.afterEach(async ({ page }) => {
  for (const editPath of published.splice(0)) await unpublishArticle(page, editPath);
});

async function publish(page: Page, article: Parameters<typeof publishArticle>[1]) {
  const editPath = await publishArticle(page, article);
  published.push(editPath);
  return editPath;
}

/** Uploads a plain JPEG of this size through the Images API; its reference (`/media/<id>/<W>x<H>`). */
async function upload(page: Page, alt: string, width: number, height: number) {
  const jpeg = await sharp({ create: { width, height, channels: 3, background: "#6b5a2a" } }).jpeg().toBuffer();
  const response = await page.request.post("/admin/media", {
    headers: { Accept: "application/json", Origin: new URL(page.url()).origin },
    multipart: { alt, file: { name: "upload.jpg", mimeType: "image/jpeg", buffer: jpeg } },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { src: string }).src;
}

async function readerPage(browser: Browser, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport, extraHTTPHeaders: { "X-Forwarded-For": randomIp() } });
  return context.newPage();
}

/** Every URL in the page's social tags and JSON-LD, with whether it names an image. */
async function structuredUrls(page: Page) {
  return page.evaluate(() => {
    const found: { where: string; url: string; image: boolean }[] = [];
    for (const meta of document.querySelectorAll<HTMLMetaElement>('meta[property^="og:"], meta[name^="twitter:"]')) {
      const key = meta.getAttribute("property") ?? meta.getAttribute("name")!;
      if (/^https?:\/\//.test(meta.content)) found.push({ where: key, url: meta.content, image: /:image$/.test(key) });
    }
    const walk = (value: unknown, path: string) => {
      if (typeof value === "string") {
        if (/^https?:\/\//.test(value)) found.push({ where: `JSON-LD ${path}`, url: value, image: /image|logo/i.test(path) });
      } else if (Array.isArray(value)) value.forEach((item, index) => walk(item, `${path}[${index}]`));
      else if (value && typeof value === "object") for (const [key, item] of Object.entries(value)) walk(item, path ? `${path}.${key}` : key);
    };
    for (const script of document.querySelectorAll('script[type="application/ld+json"]')) walk(JSON.parse(script.textContent ?? "null"), "");
    return found;
  });
}

/**
 * Fetches each of the site's own URLs by path from the running site (SITE_URL may name another
 * origin than the one the browser uses): each answers 200, and an image answers with an image.
 */
async function unresolved(request: APIRequestContext, urls: { where: string; url: string; image: boolean }[], siteOrigin: string) {
  const failures: string[] = [];
  for (const { where, url, image } of urls) {
    const parsed = new URL(url);
    if (parsed.origin !== siteOrigin) continue;
    const response = await request.get(parsed.pathname + parsed.search, { maxRedirects: 0 });
    const type = response.headers()["content-type"] ?? "";
    if (response.status() !== 200 || (image && !type.startsWith("image/"))) failures.push(`${where} ${url}: ${response.status()} ${type}`);
  }
  return failures;
}

test("with an uploaded cover and author photo, every URL in the social tags and JSON-LD of the article and author pages resolves", async ({ page, browser }) => {
  test.setTimeout(90_000);
  await signInAsAdmin(page, "/admin/authors");
  const cover = await upload(page, "A tall photo of a gold coin", 1200, 1800);
  const photo = await upload(page, "A portrait of the test author", 400, 400);
  const stamp = Date.now().toString(36);
  const authorName = `Test Author ${stamp}`;
  await page.getByLabel("Name", { exact: true }).fill(authorName);
  await page.getByLabel(/^Slug/).fill(`test-author-${stamp}`);
  await page.getByLabel(/^Photo/).fill(photo);
  await page.getByRole("button", { name: "Create author" }).click();
  await expect(page).toHaveURL(/\/admin\/authors\/[0-9a-f-]{36}\?done=authorCreated/);
  const authorId = /\/admin\/authors\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  const slug = `uploaded-images-${stamp}`;
  await publish(page, { title: "Uploaded images in search and social previews", slug, body: "Gold is rising.\n\nThe end.", category: "Market Analysis", image: cover, authorId });

  const reader = await readerPage(browser);
  await expect.poll(async () => (await reader.goto(`/articles/${slug}`))?.status(), { timeout: 5_000 }).toBe(200);
  const siteOrigin = new URL((await reader.locator('meta[property="og:url"]').getAttribute("content"))!).origin;
  const coverFile = cover.replace(/\/(\d+)x\d+$/, "/$1.jpg");
  const articleUrls = await structuredUrls(reader);
  expect(articleUrls).toContainEqual({ where: "og:image", url: `${siteOrigin}${coverFile}`, image: true });
  expect(articleUrls).toContainEqual({ where: "JSON-LD image[0]", url: `${siteOrigin}${coverFile}`, image: true });
  await expect(reader.locator('meta[property="og:image:height"]')).toHaveAttribute("content", "1800");
  expect(await unresolved(reader.request, articleUrls, siteOrigin)).toEqual([]);

  await reader.goto(`/authors/test-author-${stamp}`);
  const authorUrls = await structuredUrls(reader);
  expect(authorUrls).toContainEqual({ where: "JSON-LD image", url: `${siteOrigin}${photo.replace(/\/(\d+)x\d+$/, "/$1.jpg")}`, image: true });
  expect(authorUrls.filter((entry) => entry.image).length).toBeGreaterThanOrEqual(3);
  expect(await unresolved(reader.request, authorUrls, siteOrigin)).toEqual([]);
  await reader.context().close();
});

test("the first paragraph keeps its Markdown for readers and in the editor's preview, which holds it at 390 px", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signInAsAdmin(page, "/admin/articles");
  const slug = `lede-markdown-${Date.now().toString(36)}`;
  const guide = "https://www.sec.gov/resources-for-investors/investor-alerts-bulletins/investor-bulletin-investing-in-gold-and-precious-metals";
  const editUrl = await publish(page, {
    title: "The first paragraph with Markdown in it",
    slug,
    body: `Gold is **rising**; read the [SEC guide](${guide}) first, or ${guide} itself.\n\nThe rest of the article.`,
    category: "Market Analysis",
  });

  const reader = await readerPage(browser);
  await expect.poll(async () => (await reader.goto(`/articles/${slug}`))?.status(), { timeout: 5_000 }).toBe(200);
  const lede = reader.locator(".article-lede");
  await expect(lede.locator("strong")).toHaveText("rising");
  await expect(lede.getByRole("link", { name: "SEC guide" })).toHaveAttribute("href", guide);
  await expect(lede).not.toContainText("**");
  await expect(lede).not.toContainText("](");
  await reader.context().close();

  await page.setViewportSize({ width: 390, height: 844 });
  await gotoHydrated(page, editUrl);
  const preview = page.locator("section", { has: page.getByRole("heading", { name: "Preview" }) });
  const previewLede = page.getByTestId("article-preview").locator(".article-lede");
  await expect(previewLede.locator("strong")).toHaveText("rising");
  await expect(previewLede.getByRole("link", { name: "SEC guide" })).toHaveAttribute("href", guide);
  await expect(previewLede).not.toContainText("](");
  // Nothing of the intro runs out of the preview box, the bare address included.
  const overflow = await preview.evaluate((box) => {
    const bounds = box.getBoundingClientRect();
    const pieces = [...box.querySelectorAll(".article-lede, .article-lede *")].map((element) => element.getBoundingClientRect().right);
    return { scrolls: box.scrollWidth > box.clientWidth, past: Math.max(...pieces) - bounds.right };
  });
  expect(overflow.scrolls).toBe(false);
  expect(overflow.past).toBeLessThanOrEqual(0);
});

test("at 1366 px a sponsored card's label stays inside its Keep reading card, and the article-end block is typographic", async ({ page, browser }) => {
  test.setTimeout(90_000);
  await signInAsAdmin(page, "/admin/articles");
  const stamp = Date.now().toString(36);
  await publish(page, { title: "A sponsored piece on bullion dealers", slug: `sponsored-card-${stamp}`, body: "Bullion, explained.\n\nMore.", category: "Wealth Building", sponsor: "Acme Bullion Co." });
  const slug = `after-sponsored-${stamp}`;
  await publish(page, { title: "The article after the sponsored piece", slug, body: "Saving, explained.\n\nMore.", category: "Wealth Building" });

  const reader = await readerPage(browser, { width: 1366, height: 900 });
  await expect.poll(async () => (await reader.goto(`/articles/${slug}`))?.status(), { timeout: 5_000 }).toBe(200);
  const card = reader.getByTestId("related-articles").getByRole("listitem").filter({ hasText: "A sponsored piece on bullion dealers" });
  const label = card.getByTestId("sponsored-label");
  await expect(label).toContainText("Sponsored by Acme Bullion Co.");
  const boxes = await label.evaluate((element) => {
    const item = element.closest("li")!.getBoundingClientRect();
    return [element, ...element.querySelectorAll("*")].map((part) => {
      const box = part.getBoundingClientRect();
      return { text: part.textContent, left: box.left - item.left, right: item.right - box.right };
    });
  });
  for (const box of boxes) {
    expect(box.left, `${box.text} starts inside the card`).toBeGreaterThanOrEqual(0);
    expect(box.right, `${box.text} ends inside the card`).toBeGreaterThanOrEqual(0);
  }

  const end = reader.getByTestId("article-subscribe");
  await expect(end).toContainText("Don\u2019t miss the next move");
  expect(await end.textContent()).not.toContain("'");
  await reader.context().close();
});
