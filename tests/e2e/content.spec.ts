import { expect, test } from "@playwright/test";
import { ARTICLES } from "../support/public-routes";

test("the ESG article ends with the 10/20/30-year table and the sections after it", async ({ page }) => {
  await page.goto("/articles/esg-investing");
  const table = page.locator("article table");
  await expect(table).toHaveCount(1);
  const rows = await table.locator("tr").allInnerTexts();
  const flat = rows.join("\n");
  for (const figure of ["$162,889", "$148,595", "-$14,294", "$265,330", "$221,964", "-$43,366", "$432,194", "$331,329", "-$100,865"]) {
    expect(flat).toContain(figure);
  }
  const body = await page.locator("article").innerText();
  expect(body).toContain("$10,000");
  expect(body).toMatch(/8%/);
  expect(body).toMatch(/6\.5%/);
  const order = ["Political Ideology vs. Fiduciary Duty", "Alternatives to ESG Investing", "Red Flags in ESG Marketing", "Your 7-Step Action Plan"];
  const headings = await page.locator("article h2").allInnerTexts();
  const positions = order.map((title) => headings.findIndex((h) => h.includes(title)));
  expect(positions.every((p) => p >= 0)).toBe(true);
  expect(positions).toEqual([...positions].sort((a, b) => a - b));
  const tableIndex = await page.evaluate(() => {
    const all = [...document.querySelectorAll("article h2, article table")];
    return all.findIndex((el) => el.tagName === "TABLE") < all.findIndex((el) => el.textContent?.includes("Political Ideology"));
  });
  expect(tableIndex).toBe(true);
  const steps = page.locator("article h2:has-text('7-Step') + ol > li");
  await expect(steps).toHaveCount(7);
});

test("the generational-wealth article has its metadata, allocation and plan", async ({ page }) => {
  await page.goto("/articles/generational-wealth");
  const header = page.locator("article header");
  await expect(header).toContainText("Wealth Building");
  await expect(header).toContainText("December 3, 2025");
  const body = await page.locator("article").innerText();
  for (const text of ["Own Productive Assets", "Minimize Consumption Debt", "Diversify Income Streams", "Invest in Human Capital", "Years 1-5", "Years 5-15", "Years 15+", "25-35%", "30-40%", "15-25%", "5-10%", "10-15%"]) {
    expect(body).toContain(text);
  }
  await expect(page.locator("article h2:has-text('8-Step') + ol > li")).toHaveCount(8);
});

test("every article has its parts and the disclaimer in the HTML", async ({ request }) => {
  for (const article of ARTICLES) {
    const html = await (await request.get(`/articles/${article.slug}`)).text();
    expect(html).toContain(article.category.replace("&", "&amp;"));
    expect(html).toContain(article.author);
    expect(html).toContain(`/images/articles/${article.slug}.svg`);
    expect(html).toContain("Back to Blog");
    expect(html).toContain("not personalized investment advice");
    expect(html).not.toContain("{{siteName}}");
  }
});

test("the blog shows one featured article and a grid of five that open in a new tab", async ({ page }) => {
  await page.goto("/blog");
  const featured = ARTICLES.filter((a) => a.featured);
  expect(featured).toHaveLength(1);
  await expect(page.locator("#featured-heading + article h3")).toHaveText(featured[0]!.title);
  const grid = page.locator("section[aria-labelledby='articles-heading'] h3 a");
  await expect(grid).toHaveCount(5);
  for (const link of await grid.all()) {
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toContainText("(opens in a new tab)");
  }
});

test("category buttons filter on the server", async ({ page }) => {
  await page.goto("/blog");
  await page.getByRole("navigation", { name: "Article categories" }).getByRole("link", { name: "Bonds & Fixed Income" }).click();
  await expect(page).toHaveURL(/\/blog\?category=bonds-fixed-income$/);
  const titles = page.locator("section[aria-labelledby='articles-heading'] h3");
  await expect(titles).toHaveCount(ARTICLES.filter((a) => a.category === "Bonds & Fixed Income").length);
  await expect(page.getByRole("link", { name: "Bonds & Fixed Income", exact: true })).toHaveAttribute("aria-current", "page");
  await page.getByRole("link", { name: "All Posts" }).click();
  await expect(page.locator("section[aria-labelledby='articles-heading'] h3")).toHaveCount(5);
});

test("the home page teases the three newest articles", async ({ page }) => {
  await page.goto("/home");
  const newest = [...ARTICLES].sort((a, b) => b.date.localeCompare(a.date)).slice(0, 3);
  await expect(page.locator("section[aria-labelledby='insights-heading'] h3")).toHaveText(newest.map((a) => a.title));
  await page.getByRole("link", { name: "View All Articles" }).click();
  await expect(page).toHaveURL(/\/blog$/);
});

test("the footer has the contact block, links, year and disclosure", async ({ page }) => {
  await page.goto("/about");
  const footer = page.locator("footer");
  await expect(footer).toContainText("info@patriotinvestor.example");
  await expect(footer).toContainText("1-800-555-0199");
  await expect(footer).toContainText("United States");
  for (const name of ["About Us", "Market Insights", "Contact", "Investment Disclaimer", "Privacy Policy", "Terms of Service", "Disclaimer"]) {
    await expect(footer.getByRole("link", { name, exact: true })).toBeVisible();
  }
  await expect(footer.getByRole("link", { name: "Market Insights" })).toHaveAttribute("href", "/blog");
  await expect(footer).toContainText(`© ${new Date().getFullYear()}`);
  await expect(footer).toContainText("Important Disclosure");
});

test("legal pages were last updated January 1, 2025", async ({ page }) => {
  for (const path of ["/privacy", "/terms", "/disclaimer"]) {
    await page.goto(path);
    await expect(page.getByText("Last updated January 1, 2025")).toBeVisible();
  }
});

test("the gold advertorial is labelled and its offer links are sponsored and open a new tab", async ({ page }) => {
  await page.goto("/gold");
  const label = page.getByText("Advertisement", { exact: true });
  await expect(label).toBeVisible();
  const labelBox = await label.boundingBox();
  const headingBox = await page.getByRole("heading", { level: 1 }).boundingBox();
  expect(labelBox!.y).toBeLessThan(headingBox!.y);
  // Through the first-party redirect that counts the click (decision 152); it sends no Referer on to the sponsor.
  const offerLinks = page.locator('a[href="/go/offer"]');
  expect(await offerLinks.count()).toBeGreaterThanOrEqual(3);
  for (const link of await offerLinks.all()) {
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", "sponsored noopener");
  }
  const redirect = await page.request.get("/go/offer", { maxRedirects: 0 });
  expect(redirect.status()).toBe(302);
  expect(redirect.headers()["location"]).toBe("https://offers.example.com/free-retirement-wealth-guide");
  expect(redirect.headers()["referrer-policy"]).toBe("no-referrer");
  await expect(offerLinks.locator("img")).toHaveCount(1);
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const [name, href] of [["Home", "/home"], ["About", "/about"], ["Blog", "/blog"], ["Contact", "/contact"]]) {
    await expect(nav.getByRole("link", { name })).toHaveAttribute("href", href!);
  }
  const legal = page.getByRole("navigation", { name: "Legal" });
  await expect(legal.getByRole("link", { name: "Terms of Service" })).toHaveAttribute("href", "/terms");
  await expect(legal.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy");
});

test("the contact page has the form, side cards, four FAQs and the reply promise", async ({ page }) => {
  await page.goto("/contact");
  for (const label of ["Full Name", "Email", "Phone", "Subject", "Message"]) {
    await expect(page.getByLabel(label, { exact: false }).first()).toBeVisible();
  }
  await expect(page.locator("section[aria-labelledby='faq-heading'] details")).toHaveCount(4);
  await expect(page.getByText("We reply within 24 hours on business days.").first()).toBeVisible();
});

test("the about page has its sections", async ({ page }) => {
  await page.goto("/about");
  await expect(page.getByRole("heading", { name: "Our Core Values" })).toBeVisible();
  await expect(page.locator("section[aria-labelledby='values-heading'] li")).toHaveCount(4);
  await expect(page.getByText("founded in 2018")).toBeVisible();
  await expect(page.locator("section[aria-labelledby='expertise-heading'] h3")).toHaveCount(3);
  await expect(page.getByRole("heading", { name: "Join the Movement" })).toBeVisible();
});
