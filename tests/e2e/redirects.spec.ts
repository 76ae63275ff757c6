import { expectAxeClean } from "../support/axe";
import { expect, gotoHydrated, randomIp, signInAsAdmin, test } from "../support/fixtures";
import { nuErrors } from "../support/nu-check";

const OLD = `/2019/05/bonds-explained-${Date.now().toString(36)}/`;

/** Decision 160: an editor adds an old address in the admin; a reader following it lands on the article. */
test("an old address added at /admin/redirects answers 301 and lands on the article", async ({ page, browser }) => {
  await signInAsAdmin(page, "/admin/redirects");
  await gotoHydrated(page, "/admin/redirects");
  await expect(page.getByRole("heading", { name: "Redirects", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Redirects" })).toBeVisible();
  await page.getByLabel("Old address (path or full URL)").fill(`https://old.example${OLD}`);
  await page.getByLabel("Goes to (a path of this site)").fill("/articles/bonds-guide");
  await page.getByRole("button", { name: "Add redirect" }).click();
  await expect(page.getByText("Redirect Saved")).toBeVisible();
  const row = page.getByTestId("redirect-list").locator("tbody tr", { hasText: OLD.replace(/\/$/, "") });
  await expect(row).toContainText("/articles/bonds-guide");
  await expectAxeClean(page);
  expect(await nuErrors(await (await page.request.get(page.url())).text())).toEqual([]);
  // A foreign target is refused with the reason, the form kept.
  await page.getByLabel("Old address (path or full URL)").fill("/somewhere-old");
  await page.getByLabel("Goes to (a path of this site)").fill("https://elsewhere.example/");
  await page.getByRole("button", { name: "Add redirect" }).click();
  await expect(page.getByText("must be a path of this site")).toBeVisible();

  // A reader with no session: both processes behind the proxy answer it within moments.
  const context = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": randomIp() } });
  const reader = await context.newPage();
  await expect.poll(async () => (await reader.request.get(OLD, { maxRedirects: 0 })).status(), { timeout: 5_000 }).toBe(301);
  const answer = await reader.request.get(OLD, { maxRedirects: 0 });
  expect(answer.headers()["location"]).toBe("/articles/bonds-guide");
  expect(answer.headers()["cache-control"]).toBe("public, max-age=86400");
  await reader.goto(OLD);
  await expect(reader).toHaveURL(/\/articles\/bonds-guide$/);
  await expect(reader.getByRole("heading", { level: 1 })).toBeVisible();
  await context.close();

  const csv = await page.request.get("/admin/redirects.csv");
  expect(csv.status()).toBe(200);
  expect(await csv.text()).toContain(`${OLD.replace(/\/$/, "")},/articles/bonds-guide,admin,`);
});
