import { expect, test, type Page } from "@playwright/test";
import { E2E_BASE_URL } from "../support/e2e-env";
import { PUBLIC_ROUTES } from "../support/public-routes";

test("every page has a unique title, a description, a canonical URL and social tags", async ({ page }) => {
  // One test over every public page (about a dozen checks and an image fetch each): 30 s ran out on two busy cores.
  test.setTimeout(90_000);
  const titles = new Map<string, string>();
  for (const route of PUBLIC_ROUTES.filter((r) => r.path !== "/")) {
    await page.goto(route.path);
    const title = await page.title();
    expect(title.length, route.path).toBeGreaterThan(5);
    expect(titles.get(title), `${route.path} repeats the title of ${titles.get(title)}`).toBeUndefined();
    titles.set(title, route.path);
    const head = page.locator("head");
    await expect(head.locator('meta[name="description"]')).toHaveCount(1);
    await expect(head.locator('link[rel="canonical"]')).toHaveAttribute("href", `${E2E_BASE_URL}${route.path}`);
    for (const property of ["og:title", "og:description", "og:url", "og:image", "og:type"]) {
      await expect(head.locator(`meta[property="${property}"]`), `${route.path} ${property}`).toHaveCount(1);
    }
    await expect(head.locator('meta[name="twitter:card"]')).toHaveAttribute("content", "summary_large_image");
    // The preview image is a PNG that exists (social networks do not show SVG).
    const image = await head.locator('meta[property="og:image"]').getAttribute("content");
    expect(image).toMatch(/\.png$/);
    const imageResponse = await page.request.get(image!);
    expect(imageResponse.status()).toBe(200);
    expect(imageResponse.headers()["content-type"]).toBe("image/png");
    await expect(head.locator('link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute("href", "/rss.xml");
    await expect(head.locator("title")).toHaveCount(1);
  }
});

async function jsonLd(page: Page) {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.map((block) => JSON.parse(block) as Record<string, unknown>);
}

test("JSON-LD: Organization and WebSite on home, NewsArticle on articles, breadcrumbs inside", async ({ page }) => {
  await page.goto("/home");
  const home = JSON.stringify(await jsonLd(page));
  expect(home).toContain('"@type":"Organization"');
  expect(home).toContain('"@type":"WebSite"');

  await page.goto("/articles/bonds-guide");
  const blocks = await jsonLd(page);
  const article = blocks.find((block) => block["@type"] === "NewsArticle")!;
  expect(article).toMatchObject({ headline: expect.any(String), datePublished: expect.any(String), dateModified: expect.any(String) });
  expect(article.image).toEqual([`${E2E_BASE_URL}/images/social/articles-bonds-guide.png`]);
  expect(JSON.stringify(article.author)).toContain("Person");
  expect(JSON.stringify(article.publisher)).toContain("Organization");
  expect(blocks.some((block) => block["@type"] === "BreadcrumbList")).toBe(true);

  for (const path of ["/about", "/blog", "/contact", "/privacy"]) {
    await page.goto(path);
    expect((await jsonLd(page)).some((block) => block["@type"] === "BreadcrumbList"), path).toBe(true);
  }
});

test("auth and admin pages are noindex; public pages are not", async ({ page }) => {
  await page.goto("/auth");
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await page.goto("/about");
  await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
});

test("the sitemap lists every public page and each answers 200", async ({ request }) => {
  const xml = await (await request.get("/sitemap.xml")).text();
  const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
  for (const route of PUBLIC_ROUTES.filter((r) => r.path !== "/auth")) expect(locs).toContain(`${E2E_BASE_URL}${route.path}`);
  // Sign-in and the admin area are not listed (author pages, /authors/…, are).
  expect(locs.some((loc) => /\/(auth|admin)(\/|\?|$)/.test(new URL(loc).pathname))).toBe(false);
  expect(locs.some((loc) => loc.includes("/authors/"))).toBe(true);
  // The first page of each list: a category, a month of the archive.
  expect(locs).toContain(`${E2E_BASE_URL}/blog?category=precious-metals`);
  expect(locs.some((loc) => /\/blog\/\d{4}\/\d{2}$/.test(loc))).toBe(true);
  for (const loc of locs) expect((await request.get(loc)).status(), loc).toBe(200);
});

test("robots.txt points to the sitemap", async ({ request }) => {
  const text = await (await request.get("/robots.txt")).text();
  expect(text).toContain(`Sitemap: ${E2E_BASE_URL}/sitemap.xml`);
  expect(text).toContain("Disallow: /admin/");
  // The sign-in pages are kept out, the author pages are not (robots rules are prefixes).
  const disallowed = text.split("\n").filter((line) => line.startsWith("Disallow: ")).map((line) => line.slice("Disallow: ".length));
  expect(disallowed).toContain("/auth$");
  expect(disallowed.some((rule) => !rule.endsWith("$") && "/authors/michael-harrington".startsWith(rule))).toBe(false);
});

test("rss.xml is well-formed RSS 2.0 with the latest articles and stable guids", async ({ page, request }) => {
  const response = await request.get("/rss.xml");
  expect(response.headers()["content-type"]).toContain("application/rss+xml");
  const xml = await response.text();
  await page.goto("/about");
  const parsed = await page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, "application/xml");
    return {
      error: doc.querySelector("parsererror")?.textContent ?? null,
      version: doc.documentElement.getAttribute("version"),
      channelTitle: doc.querySelector("channel > title")?.textContent,
      items: [...doc.querySelectorAll("item")].map((item) => ({
        title: item.querySelector("title")?.textContent,
        link: item.querySelector("link")?.textContent,
        guid: item.querySelector("guid")?.textContent,
        pubDate: item.querySelector("pubDate")?.textContent,
      })),
    };
  }, xml);
  expect(parsed.error).toBeNull();
  expect(parsed.version).toBe("2.0");
  // The latest 20 (RSS_ITEMS) with full content: every seed article while fewer than 20 are
  // public (articles other tests published from the desk may be there too).
  expect(parsed.items.length).toBeLessThanOrEqual(20);
  expect(xml).toContain("<content:encoded>");
  const links = parsed.items.map((item) => new URL(item.link!).pathname);
  if (parsed.items.length < 20) for (const route of PUBLIC_ROUTES.filter((r) => r.path.startsWith("/articles/"))) expect(links).toContain(route.path);
  for (const item of parsed.items) {
    expect(item.guid).toBe(item.link);
    expect(item.guid).toMatch(/\/articles\/[a-z0-9]+(?:-[a-z0-9]+)*$/);
    expect(Number.isNaN(Date.parse(item.pubDate!))).toBe(false);
    expect((await request.get(item.link!)).status()).toBe(200);
  }
  expect(xml).toBe(await (await request.get("/rss.xml")).text());
});
