import type { Page } from "@playwright/test";
import { E2E_MAIL_URL } from "../support/e2e-env";
import { expect, randomMobile, test } from "../support/fixtures";
import type { CapturedMail } from "../support/smtp-capture";

/**
 * Pages no sitemap lists but a reader meets: sign-in and its neighbours, a search with results and
 * one without, a page that does not exist. (The newsletter's link pages are opened from a mail.)
 */
const UNLISTED_PAGES = [
  "/",
  "/home",
  "/opt-in",
  "/gold",
  "/contact",
  "/search?q=gold",
  "/search?q=zzzz-nothing-matches",
  "/auth",
  "/auth/forgot",
  "/no-such-page-here",
];

/** Where a straight mark is the right one: code, and text that is not read as prose. */
const NOT_PROSE = "script, style, code, pre, textarea, noscript, template, svg";

/** A straight apostrophe between letters ("Fed's"), or straight double quotes around words ("Reply STOP"). */
const STRAIGHT_APOSTROPHE = /\p{L}'\p{L}/u;
const STRAIGHT_QUOTES = /"[^"\s][^"]*"/;

/**
 * Every text a reader sees on the page: the text of each block (its text nodes joined, so quotes
 * split by a link still count), the title, the descriptions a search result or a shared link
 * shows, and the alt, placeholder, aria-label and title attributes.
 */
async function visibleTexts(page: Page) {
  return page.evaluate((notProse) => {
    const texts: { where: string; text: string }[] = [];
    const blocks = new Map<Element, string>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest(notProse)) continue;
      let block: Element = parent;
      while (block.parentElement && getComputedStyle(block).display.startsWith("inline")) block = block.parentElement;
      blocks.set(block, (blocks.get(block) ?? "") + node.nodeValue);
    }
    for (const [block, text] of blocks) if (text.trim()) texts.push({ where: `<${block.tagName.toLowerCase()}>`, text: text.replace(/\s+/g, " ").trim() });
    texts.push({ where: "<title>", text: document.title });
    for (const meta of document.querySelectorAll<HTMLMetaElement>('meta[name="description"], meta[property^="og:"], meta[name^="twitter:"]')) {
      const name = meta.getAttribute("name") ?? meta.getAttribute("property")!;
      if (/(title|description|image:alt)$/.test(name)) texts.push({ where: `meta ${name}`, text: meta.content });
    }
    for (const attribute of ["alt", "placeholder", "aria-label", "title"]) {
      for (const element of document.body.querySelectorAll(`[${attribute}]`)) {
        if (element.closest(notProse)) continue;
        texts.push({ where: `<${element.tagName.toLowerCase()} ${attribute}>`, text: element.getAttribute(attribute)! });
      }
    }
    return texts;
  }, NOT_PROSE);
}

test("every public page writes its apostrophes and quotes typographically", async ({ page, request }) => {
  test.setTimeout(240_000);
  const sitemap = await (await request.get("/sitemap.xml")).text();
  const listed = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => {
    const url = new URL(match[1]!.replace(/&amp;/g, "&"));
    return url.pathname + url.search;
  });
  // The sitemap holds every article, author page, category and month, and the legal pages.
  expect(listed.filter((path) => path.startsWith("/articles/")).length).toBeGreaterThan(0);
  expect(listed.filter((path) => path.startsWith("/authors/")).length).toBeGreaterThan(0);
  for (const path of ["/about", "/blog", "/privacy", "/terms", "/disclaimer"]) expect(listed).toContain(path);
  const paths = [...new Set([...UNLISTED_PAGES, ...listed])];
  // A second page of the blog, where there is one.
  await page.goto("/blog");
  const next = page.locator('a[rel="next"]').first();
  if (await next.count()) paths.push((await next.getAttribute("href"))!);

  const straight: string[] = [];
  const check = async (where: string) => {
    for (const { where: element, text } of await visibleTexts(page)) {
      if (STRAIGHT_APOSTROPHE.test(text) || STRAIGHT_QUOTES.test(text)) straight.push(`${where} ${element}: ${text.slice(0, 200)}`);
    }
  };
  for (const path of paths) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(path === "/no-such-page-here" ? 404 : 200);
    await check(path);
  }

  // The newsletter's pages, reached as a subscriber reaches them: the mail, its confirmation link,
  // the confirmed page, the preferences page.
  const email = `typography-${Date.now()}@example.com`;
  const posted = await request.post("/home", {
    form: { intent: "newsletter", firstName: "Abigail", lastName: "Adams", email, phone: randomMobile(), termsConsent: "on" },
  });
  expect(posted.status()).toBe(200);
  const mails = async () => (await (await request.get(`${E2E_MAIL_URL}?to=${encodeURIComponent(email)}`)).json()) as CapturedMail[];
  await expect.poll(async () => (await mails()).length, { timeout: 15_000 }).toBe(1);
  const [mail] = await mails();
  for (const line of [mail!.subject, ...(mail!.plain ?? "").split("\n")]) {
    if (STRAIGHT_APOSTROPHE.test(line) || STRAIGHT_QUOTES.test(line)) straight.push(`confirmation mail, text: ${line}`);
  }
  const mailPage = await page.context().newPage();
  await mailPage.setContent(mail!.html ?? "");
  for (const { where, text } of await visibleTexts(mailPage)) {
    if (STRAIGHT_APOSTROPHE.test(text) || STRAIGHT_QUOTES.test(text)) straight.push(`confirmation mail, HTML ${where}: ${text.slice(0, 200)}`);
  }
  await mailPage.close();
  const link = mail!.links.find((url) => url.includes("/newsletter/confirm?token="))!;
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ""));
  await check("/newsletter/confirm");
  await page.getByRole("button", { name: "Confirm my subscription" }).click();
  await expect(page.getByRole("link", { name: "Manage your subscription" })).toBeVisible();
  await check("/newsletter/confirm (confirmed)");
  await page.getByRole("link", { name: "Manage your subscription" }).click();
  await expect(page.getByTestId("newsletter-status")).toBeVisible();
  await check("/newsletter/preferences");

  expect(paths.length).toBeGreaterThan(UNLISTED_PAGES.length + 10);
  expect(straight).toEqual([]);
});
