import type { Locator, Page } from "@playwright/test";
import { expectAxeClean } from "../support/axe";
import { E2E_ADMIN } from "../support/e2e-env";
import { expect, gotoHydrated, randomMobile, test } from "../support/fixtures";

const PHONE = { width: 390, height: 844 };
const ADMIN_PAGES = ["/admin/sms", "/admin/subscribers", "/admin/messages", "/admin/inbox", "/admin/dnc", "/admin/rnd", "/admin/security"];

test.describe.configure({ mode: "default" });

async function signIn(page: Page) {
  await gotoHydrated(page, "/auth?redirectTo=%2Fadmin%2Fsms");
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/sms/);
}

/** Whether the element lies wholly inside the viewport's width (no part cut off at the right). */
async function withinWidth(locator: Locator) {
  const box = await locator.boundingBox();
  return box !== null && box.x >= 0 && box.x + box.width <= PHONE.width;
}

test("every admin page is usable at 390 px: no sideways overflow, rows as cards, a legible chart, axe 0", async ({ page, request }) => {
  // Six pages, each checked by axe, on a machine the browser shares with the server.
  test.setTimeout(120_000);
  const phone = randomMobile();
  const clickId = `phone-admin-${Date.now()}`;
  await request.post("/api/phone-optin", { data: { firstName: "Deborah", lastName: "Sampson", phone, clickId, smsConsent: true, termsConsent: true } });
  await request.post("/contact", {
    form: { name: "Long Address", email: `a-very-long-address-${Date.now()}@subdomain.example.com`, subject: "Phone check", message: "Hello." },
  });
  await page.setViewportSize(PHONE);
  await signIn(page);

  for (const path of ADMIN_PAGES) {
    await page.goto(path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} overflows sideways`).toBeLessThanOrEqual(0);
    await expectAxeClean(page, path);
  }

  // Messages: a row is a card with its status and text in view, not a squeezed 320 px tall column.
  await page.goto("/admin/messages");
  const message = page.getByTestId("message-row").filter({ hasText: `+1${phone.replace(/\D/g, "")}` });
  await expect(message).toHaveCount(1);
  const statusCell = message.locator('td[data-label="Status"]');
  const textCell = message.locator('td[data-label="Text"]');
  await expect(statusCell).toBeVisible();
  expect(await withinWidth(statusCell)).toBe(true);
  expect(await withinWidth(textCell)).toBe(true);
  expect((await message.boundingBox())!.height).toBeLessThan(600);

  // Subscribers: status, date, postback and History all in view.
  await page.goto(`/admin/subscribers?q=${clickId}`);
  const row = page.locator("tbody tr").filter({ hasText: "Deborah Sampson" });
  for (const label of ["Status", "Date", "Postback", "Consent"]) {
    expect(await withinWidth(row.locator(`td[data-label="${label}"]`)), label).toBe(true);
  }
  const history = row.getByRole("link", { name: "History" });
  await history.scrollIntoViewIfNeeded();
  await expect(history).toBeInViewport({ ratio: 1 });
  // The chart's date labels are real text of a readable size.
  const chart = page.locator("figure").filter({ has: page.getByRole("img", { name: /Web opt-ins per day/ }) });
  const fontSize = await chart.locator("div span").first().evaluate((span) => parseFloat(getComputedStyle(span).fontSize));
  expect(fontSize).toBeGreaterThanOrEqual(12);
  const labelBox = await chart.locator("div span").first().boundingBox();
  expect(labelBox!.height).toBeGreaterThanOrEqual(12);
});

test("at 1366 px the admin tables stay tables", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page);
  await page.goto("/admin/messages");
  await expect(page.locator("table.stack-table thead")).toBeVisible();
  expect(await page.locator("table.stack-table").evaluate((table) => getComputedStyle(table).display)).toBe("table");
});
