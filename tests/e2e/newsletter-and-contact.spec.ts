import type { Page } from "@playwright/test";
import { DNC_TEST_NUMBER, expect, gotoHydrated, randomMobile, test } from "../support/fixtures";

const newsletter = (page: Page) => page.locator("#newsletter form");
const toast = (page: Page) => page.locator("[data-sonner-toast]");

async function fillNewsletter(page: Page, values: { email: string; phone?: string; sms?: boolean; terms?: boolean }) {
  const form = newsletter(page);
  await form.getByLabel("First Name").fill("George");
  await form.getByLabel("Last Name").fill("Washington");
  await form.getByLabel("Email").fill(values.email);
  await form.getByLabel("Phone", { exact: true }).fill(values.phone ?? randomMobile());
  if (values.sms) await form.getByLabel(/recurring automated marketing text messages/).check();
  if (values.terms) await form.getByLabel(/I agree to the/).check();
}

const uniqueEmail = () => `reader-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

test.describe("the newsletter section", () => {
  test("Subscribe is disabled until every field and terms consent are filled", async ({ page }) => {
    await gotoHydrated(page, "/home");
    const submit = newsletter(page).getByRole("button", { name: "Subscribe" });
    await expect(submit).toBeDisabled();
    await fillNewsletter(page, { email: uniqueEmail() });
    await expect(submit).toBeDisabled();
    await expect(submit).toHaveAccessibleDescription("Still needed: the Terms of Service box.");
    await newsletter(page).getByLabel(/I agree to the/).check();
    await expect(submit).toBeEnabled();
    await expect(submit).not.toHaveAttribute("aria-describedby");
    await newsletter(page).getByLabel("Email").fill("");
    await expect(submit).toBeDisabled();
    await expect(submit).toHaveAccessibleDescription("Still needed: email.");
    await expect(newsletter(page).getByText("Still needed: email.")).toBeVisible();
  });

  test("success: the notice names the product and every field resets", { tag: "@header-styles" }, async ({ page }) => {
    await gotoHydrated(page, "/home");
    await fillNewsletter(page, { email: uniqueEmail(), sms: true, terms: true });
    await newsletter(page).getByRole("button", { name: "Subscribe" }).click();
    const success = toast(page).filter({ hasText: "Successfully Subscribed!" });
    await expect(success).toContainText("Welcome to Patriot Investor! You’ll receive updates soon.");
    // Confirmed opt-in: a second notice asks the person to open the link we mailed.
    await expect(toast(page).filter({ hasText: "Check Your Inbox" })).toHaveCount(1);
    const form = newsletter(page);
    for (const label of ["First Name", "Last Name", "Email", "Phone"]) await expect(form.getByLabel(label, { exact: true })).toHaveValue("");
    await expect(form.getByLabel(/recurring automated marketing text messages/)).not.toBeChecked();
    await expect(form.getByLabel(/I agree to the/)).not.toBeChecked();
  });

  test("works from / on the main domain too", async ({ page }) => {
    await gotoHydrated(page, "/");
    await fillNewsletter(page, { email: uniqueEmail(), terms: true });
    await newsletter(page).getByRole("button", { name: "Subscribe" }).click();
    await expect(toast(page).filter({ hasText: "Successfully Subscribed!" })).toHaveCount(1);
  });

  test("a Do-Not-Call number keeps the e-mail sign-up and says why no texts will come", async ({ page }) => {
    await gotoHydrated(page, "/home");
    await fillNewsletter(page, { email: uniqueEmail(), phone: DNC_TEST_NUMBER, sms: true, terms: true });
    await newsletter(page).getByRole("button", { name: "Subscribe" }).click();
    await expect(toast(page).filter({ hasText: "Successfully Subscribed!" })).toHaveCount(1);
    await expect(toast(page).filter({ hasText: "Unable to Subscribe" })).toHaveCount(1);
  });

  test.describe("with JavaScript off", () => {
    test.use({ javaScriptEnabled: false });

    test("terms not ticked: Consent Required, and the typing is kept", async ({ page }) => {
      await page.goto("/home");
      const email = uniqueEmail();
      await fillNewsletter(page, { email });
      await newsletter(page).getByRole("button", { name: "Subscribe" }).click();
      await expect(page.getByRole("alert")).toContainText("Consent Required");
      await expect(page.getByRole("alert")).toContainText("Please agree to the terms and conditions to continue.");
      await expect(newsletter(page).getByLabel("Email")).toHaveValue(email);
    });

    test("the sign-up is stored and the result shown", async ({ page }) => {
      await page.goto("/about");
      await page.goto("/home");
      await fillNewsletter(page, { email: uniqueEmail(), terms: true });
      await newsletter(page).getByRole("button", { name: "Subscribe" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Successfully Subscribed!" })).toContainText("Successfully Subscribed!");
      await expect(page.getByRole("status").filter({ hasText: "Check Your Inbox" })).toHaveCount(1);
      // The answer is a whole page: it opens at the form with its notice in view, not at the top.
      await expect(page).toHaveURL(/\/home#newsletter$/);
      await expect(page.getByRole("status").filter({ hasText: "Successfully Subscribed!" })).toBeInViewport();
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    });
  });
});

test.describe("the contact form", () => {
  async function fillContact(page: Page, message = "When is the next Fed meeting?") {
    await page.getByLabel("Full Name").fill("Abigail Adams");
    await page.getByLabel("Email").fill("abigail@example.com");
    await page.getByLabel("Subject").fill("A question");
    await page.getByLabel("Message", { exact: true }).fill(message);
  }

  test("sends and confirms with the reply promise", async ({ page }) => {
    await gotoHydrated(page, "/contact");
    await fillContact(page);
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(toast(page)).toContainText("Message Sent");
    await expect(toast(page)).toContainText("We reply within 24 hours on business days.");
    await expect(page.getByLabel("Message", { exact: true })).toHaveValue("");
  });

  test("says which fields are missing", async ({ page }) => {
    await gotoHydrated(page, "/contact");
    await page.getByLabel("Full Name").fill("Abigail Adams");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(toast(page)).toContainText("Please Check the Form");
    await expect(page.getByText("Email is required.")).toBeVisible();
    await expect(page.getByText("Message is required.")).toBeVisible();
  });

  test.describe("with JavaScript off", () => {
    test.use({ javaScriptEnabled: false });
    test("submits and shows the result", async ({ page }) => {
      await page.goto("/contact");
      await fillContact(page);
      await page.getByRole("button", { name: "Send Message" }).click();
      await expect(page.getByRole("status")).toContainText("Message Sent");
    });
  });
});
