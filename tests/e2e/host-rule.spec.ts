import { expect, test } from "@playwright/test";
import { E2E_HOST, E2E_OTHER_HOST_URL, E2E_PORT } from "../support/e2e-env";

test("/ on a main domain is the home page", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Protect Your Wealth. Defend Your Future.");
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/$/);
});

test("/ on any other host is the opt-in page, rendered on the server", async ({ page, request }) => {
  const html = await (await request.get(`${E2E_OTHER_HOST_URL}/`)).text();
  expect(html).toContain("Get Breaking Market Alerts by Text");
  expect(html).not.toContain("Protect Your Wealth. Defend Your Future.");
  await page.goto(`${E2E_OTHER_HOST_URL}/`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Get Breaking Market Alerts by Text");
});

test("the www. twin of a main domain is a main domain too", async ({ request }) => {
  const html = await (await request.get("/", { headers: { Host: `www.${E2E_HOST}:${E2E_PORT}` } })).text();
  expect(html).toContain("Protect Your Wealth. Defend Your Future.");
});
