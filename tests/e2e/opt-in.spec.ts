import { DNC_TEST_NUMBER, expect, gotoHydrated, randomMobile, test } from "../support/fixtures";
import type { Page } from "@playwright/test";

async function fill(page: Page, values: { first?: string; last?: string; phone?: string; sms?: boolean; terms?: boolean }) {
  if (values.first !== undefined) await page.getByLabel("First Name").fill(values.first);
  if (values.last !== undefined) await page.getByLabel("Last Name").fill(values.last);
  if (values.phone !== undefined) await page.getByLabel("Mobile Phone").fill(values.phone);
  if (values.sms) await page.getByLabel(/recurring automated marketing text messages/).check();
  if (values.terms) await page.getByLabel(/I agree to the Terms of Service/).check();
}

const toast = (page: Page) => page.locator("[data-sonner-toast]");

test("prefills from sub2, f_name, l_name and phone, and never ticks consent from the URL", async ({ page }) => {
  await gotoHydrated(page, "/opt-in?sub2=click-42&f_name=Betsy&l_name=Ross&phone=2124561776&smsConsent=on&termsConsent=true");
  await expect(page.getByLabel("First Name")).toHaveValue("Betsy");
  await expect(page.getByLabel("Last Name")).toHaveValue("Ross");
  await expect(page.getByLabel("Mobile Phone")).toHaveValue("2124561776");
  await expect(page.locator('input[name="clickId"]')).toHaveValue("click-42");
  await expect(page.getByLabel(/recurring automated marketing text messages/)).not.toBeChecked();
  await expect(page.getByLabel(/I agree to the Terms of Service/)).not.toBeChecked();
});

test("hostile prefill values are shown as typed text, hydrate without errors and run nothing", async ({ page }) => {
  const values = { first: `"><script>alert(1)</script>`, last: "O'Brien & Sons <b>", phone: "%FF" };
  const errors: string[] = [];
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("dialog", (dialog) => {
    errors.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  const query = `f_name=${encodeURIComponent(values.first)}&l_name=${encodeURIComponent(values.last)}&phone=%FF&sub2=%22x%22`;
  await gotoHydrated(page, `/opt-in?${query}`);
  await expect(page.getByLabel("First Name")).toHaveValue(values.first);
  await expect(page.getByLabel("Last Name")).toHaveValue(values.last);
  await expect(page.getByLabel("Mobile Phone")).toHaveValue("\uFFFD");
  await expect(page.locator('input[name="clickId"]')).toHaveValue('"x"');
  // React keeps the server's inputs: typing after hydration is the person's, not the prefill.
  await page.getByLabel("First Name").fill("Betsy");
  await expect(page.getByLabel("First Name")).toHaveValue("Betsy");
  expect(errors).toEqual([]);
});

test("shows the full SMS disclosure with links to the terms and privacy pages", async ({ page }) => {
  await gotoHydrated(page, "/opt-in");
  const form = page.locator("form");
  for (const part of ["Patriot Investor", "Consent is not a condition of any purchase", "Up to 3 msgs/day", "Msg & data rates may apply", "Reply HELP for help, STOP to cancel"]) {
    await expect(form).toContainText(part);
  }
  await expect(form.getByRole("link", { name: "Terms of Service" })).toHaveAttribute("href", "/terms");
  await expect(form.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy");
});

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
]) {
  test(`at ${viewport.width} px submit follows the server's rule (names, phone, both boxes) and says what is still missing`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await gotoHydrated(page, "/opt-in");
    const submit = page.getByRole("button", { name: "JOIN FREE ALERTS" });
    const hint = async () => {
      const id = await submit.getAttribute("aria-describedby");
      return id ? page.locator(`[id="${id}"]`).innerText() : null;
    };
    await expect(submit).toBeDisabled();
    expect(await hint()).toBe("Still needed: first name, last name, mobile phone, the SMS alerts box and the Terms of Service box.");
    await fill(page, { first: "Betsy", last: "Ross", phone: randomMobile() });
    await expect.poll(hint).toBe("Still needed: the SMS alerts box and the Terms of Service box.");
    await fill(page, { terms: true });
    // The Terms box alone is not enough: the server needs the SMS box too (decision 007).
    await expect(submit).toBeDisabled();
    await expect.poll(hint).toBe("Still needed: the SMS alerts box.");
    await expect(submit).toHaveAccessibleDescription("Still needed: the SMS alerts box.");
    // The line is on screen right under the button, not only in the accessibility tree.
    const hintLine = page.getByText("Still needed: the SMS alerts box.");
    await hintLine.scrollIntoViewIfNeeded();
    await expect(hintLine).toBeInViewport();
    const [buttonBox, hintBox] = [await submit.boundingBox(), await hintLine.boundingBox()];
    expect(hintBox!.y - (buttonBox!.y + buttonBox!.height)).toBeLessThan(24);
    await fill(page, { sms: true });
    await expect(submit).toBeEnabled();
    expect(await hint()).toBeNull();
    await page.getByLabel("Last Name").fill("  ");
    await expect(submit).toBeDisabled();
    await expect.poll(hint).toBe("Still needed: last name.");
  });
}

test("success: Welcome Patriot!, the form clears, and the browser goes to /blog after 1.5 s", async ({ page }) => {
  await gotoHydrated(page, "/opt-in");
  await fill(page, { first: "Betsy", last: "Ross", phone: randomMobile(), sms: true, terms: true });
  // Hold the answer for a moment to see the joining state.
  await page.route("**/opt-in.data*", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    await route.continue();
  });
  const started = Date.now();
  await page.getByRole("button", { name: "JOIN FREE ALERTS" }).click();
  await expect(page.getByRole("button", { name: "Joining..." })).toBeDisabled();
  await expect(toast(page)).toContainText("Welcome Patriot!");
  await expect(toast(page)).toContainText("You’re now subscribed to breaking market alerts!");
  await expect(page.getByLabel("First Name")).toHaveValue("");
  await expect(page.getByLabel("Mobile Phone")).toHaveValue("");
  await page.waitForURL(/\/blog$/);
  expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Market Insights");
  // The blog starts at the top, not at the form's scroll position.
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
});

test("at phone size the blog also starts at the top after a successful opt-in", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await gotoHydrated(page, "/opt-in");
  await fill(page, { first: "Betsy", last: "Ross", phone: randomMobile(), sms: true, terms: true });
  await page.getByRole("button", { name: "JOIN FREE ALERTS" }).click();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
  await page.waitForURL(/\/blog$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Market Insights");
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
});

test("the same number twice is the same success", async ({ page }) => {
  const phone = randomMobile();
  for (let i = 0; i < 2; i++) {
    await gotoHydrated(page, "/opt-in");
    await fill(page, { first: "Betsy", last: "Ross", phone, sms: true, terms: true });
    await page.getByRole("button", { name: "JOIN FREE ALERTS" }).click();
    await expect(toast(page)).toContainText("Welcome Patriot!");
  }
});

test("a number on the Do-Not-Call list: Unable to Subscribe", async ({ page }) => {
  await gotoHydrated(page, "/opt-in");
  await fill(page, { first: "Do", last: "Notcall", phone: DNC_TEST_NUMBER, sms: true, terms: true });
  await page.getByRole("button", { name: "JOIN FREE ALERTS" }).click();
  await expect(toast(page)).toContainText("Unable to Subscribe");
  await expect(toast(page)).toContainText("This phone number is on the Do Not Call list and cannot receive marketing messages.");
  await expect(page).toHaveURL(/\/opt-in$/);
});

test("a number that cannot get texts: Subscription Error with the server's reason", async ({ page }) => {
  await gotoHydrated(page, "/opt-in");
  await fill(page, { first: "Betsy", last: "Ross", phone: "(212) 555-0123", sms: true, terms: true });
  await page.getByRole("button", { name: "JOIN FREE ALERTS" }).click();
  await expect(toast(page)).toContainText("Subscription Error");
  await expect(toast(page)).toContainText("555 numbers are reserved");
  await expect(page.getByText("555 numbers are reserved").first()).toBeVisible();
});

test("ten digits that cannot be a number say why (area code 555 from a test link)", async ({ page }) => {
  await gotoHydrated(page, "/opt-in?sub2=test-link&phone=5551234567&f_name=Test&l_name=Link");
  await fill(page, { sms: true, terms: true });
  await page.getByRole("button", { name: "JOIN FREE ALERTS" }).click();
  await expect(toast(page)).toContainText("Area code 555 is reserved for examples and tests");
  await expect(page.getByText("Area code 555 is reserved for examples and tests").first()).toBeVisible();
  await expect(page.getByText("valid 10-digit")).toHaveCount(0);
});

test("a network failure: Subscription Error with the generic text", async ({ page }) => {
  await gotoHydrated(page, "/opt-in");
  await fill(page, { first: "Betsy", last: "Ross", phone: randomMobile(), sms: true, terms: true });
  await page.route("**/opt-in.data*", (route) => route.abort("failed"));
  await page.getByRole("button", { name: "JOIN FREE ALERTS" }).click();
  await expect(toast(page)).toContainText("Subscription Error");
  await expect(toast(page)).toContainText("There was an issue with your subscription. Please try again.");
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("empty fields: the browser asks first, and the server answers Required Fields Missing", async ({ page }) => {
    await page.goto("/opt-in");
    await page.getByRole("button", { name: "JOIN FREE ALERTS" }).click();
    await expect(page.getByLabel("First Name")).toHaveJSProperty("validity.valueMissing", true);
    // A browser that skips the required attributes still gets the catalogue's notice.
    const response = await page.request.post("/opt-in", { form: { firstName: "", lastName: "", phone: "", termsConsent: "on" } });
    expect(response.status()).toBe(400);
    const html = await response.text();
    expect(html).toContain("Required Fields Missing");
    expect(html).toContain("Please fill in your first name, last name, and phone number.");
  });

  test("SMS box not ticked: Consent Required, the SMS box's notice", async ({ page }) => {
    await page.goto("/opt-in");
    await fill(page, { first: "Betsy", last: "Ross", phone: randomMobile(), terms: true });
    await page.getByRole("button", { name: "JOIN FREE ALERTS" }).click();
    await expect(page.getByRole("alert")).toContainText("Consent Required");
    await expect(page.getByRole("alert")).toContainText("Please check the box to agree to receive SMS market alerts.");
  });

  test("terms not ticked: Consent Required", async ({ page }) => {
    await page.goto("/opt-in");
    await fill(page, { first: "Betsy", last: "Ross", phone: randomMobile(), sms: true });
    await page.getByRole("button", { name: "JOIN FREE ALERTS" }).click();
    await expect(page.getByRole("alert")).toContainText("Consent Required");
    await expect(page.getByRole("alert")).toContainText("Please agree to the terms and conditions to continue.");
  });

  test("the form submits and the result is shown", { tag: "@header-styles" }, async ({ page }) => {
    await page.goto("/opt-in?sub2=nojs");
    await fill(page, { first: "Betsy", last: "Ross", phone: randomMobile(), sms: true, terms: true });
    await page.getByRole("button", { name: "JOIN FREE ALERTS" }).click();
    await expect(page.getByRole("status")).toContainText("Welcome Patriot!");
    await expect(page.getByRole("link", { name: "Continue to the latest market insights" })).toHaveAttribute("href", "/blog");
  });

  test("a Do-Not-Call number is refused", async ({ page }) => {
    await page.goto("/opt-in");
    await fill(page, { first: "Do", last: "Notcall", phone: DNC_TEST_NUMBER, sms: true, terms: true });
    await page.getByRole("button", { name: "JOIN FREE ALERTS" }).click();
    await expect(page.getByRole("alert")).toContainText("Unable to Subscribe");
  });
});
