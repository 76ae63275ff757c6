import type { Locator, Page } from "@playwright/test";
import { E2E_ADMIN } from "../support/e2e-env";
import { expect, randomMobile, test } from "../support/fixtures";

/**
 * A slow phone shows the server's HTML long before React takes over (decision 009): whatever a
 * person typed in that moment must be exactly what the page holds and sends once it hydrates.
 * The page's modules are held back until the typing is done, so the typing surely comes first.
 */
async function openBeforeHydration(page: Page, url: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto(url, { waitUntil: "domcontentloaded" });
  return async () => {
    expect(await page.locator("html[data-hydrated]").count()).toBe(0);
    release();
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  };
}

/** Select everything in the field and type over it, as a person replacing a text does. */
async function typeOver(page: Page, field: Locator, text: string) {
  await field.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(text);
}

test("the welcome SMS editor keeps a new text typed before hydration, and saves exactly it", async ({ page }) => {
  await page.goto("/auth?redirectTo=%2Fadmin%2Fsms");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/sms/);

  const hydrate = await openBeforeHydration(page, "/admin/sms");
  const box = page.getByLabel("Welcome message");
  const typed = `Typed before hydration ${Date.now()}. Reply STOP to opt out.`;
  await typeOver(page, box, typed);
  await hydrate();
  await expect(box).toHaveValue(typed);
  await expect(page.getByTestId("char-count")).toHaveText(String(typed.length));

  // What Save sends (answered here, so the shared text of the other tests stays as it is).
  const posted = new Promise<string>((resolve) => {
    void page.route("**/admin/sms*", async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      resolve(new URLSearchParams(route.request().postData() ?? "").get("message") ?? "");
      await route.abort();
    });
  });
  await page.getByRole("button", { name: "Save" }).click();
  expect(await posted).toBe(typed);
});

test("the opt-in page keeps what was typed before hydration and counts it as filled", async ({ page }) => {
  const hydrate = await openBeforeHydration(page, "/opt-in");
  const phone = randomMobile();
  await typeOver(page, page.getByLabel("First Name"), "Deborah");
  await typeOver(page, page.getByLabel("Last Name"), "Sampson");
  await typeOver(page, page.getByLabel("Mobile Phone"), phone);
  await page.getByLabel(/recurring automated marketing text messages/).check();
  await page.getByLabel(/I agree to the/).check();
  await hydrate();
  await expect(page.getByLabel("First Name")).toHaveValue("Deborah");
  await expect(page.getByLabel("Last Name")).toHaveValue("Sampson");
  await expect(page.getByLabel("Mobile Phone")).toHaveValue(phone);
  await expect(page.getByLabel(/recurring automated marketing text messages/)).toBeChecked();
  await expect(page.getByLabel(/I agree to the/)).toBeChecked();
  await expect(page.getByRole("button", { name: "JOIN FREE ALERTS" })).toBeEnabled();
});

test("the newsletter form keeps what was typed before hydration and counts it as filled", async ({ page }) => {
  const hydrate = await openBeforeHydration(page, "/home");
  const form = page.locator("#newsletter form");
  const email = `early-${Date.now()}@example.com`;
  await typeOver(page, form.getByLabel("First Name"), "Mercy");
  await typeOver(page, form.getByLabel("Last Name"), "Warren");
  await typeOver(page, form.getByLabel("Email"), email);
  await typeOver(page, form.getByLabel("Phone", { exact: true }), "212-457-0199");
  await form.getByLabel(/I agree to the/).check();
  await hydrate();
  await expect(form.getByLabel("First Name")).toHaveValue("Mercy");
  await expect(form.getByLabel("Last Name")).toHaveValue("Warren");
  await expect(form.getByLabel("Email")).toHaveValue(email);
  await expect(form.getByLabel("Phone", { exact: true })).toHaveValue("212-457-0199");
  await expect(form.getByRole("button", { name: "Subscribe" })).toBeEnabled();
});

test("the contact form keeps a message typed before hydration", async ({ page }) => {
  const hydrate = await openBeforeHydration(page, "/contact");
  const message = "Typed at once:\nwhat do you think of silver this year?";
  const box = page.getByRole("textbox", { name: "Message" });
  await typeOver(page, box, message);
  await hydrate();
  await expect(box).toHaveValue(message);
});
