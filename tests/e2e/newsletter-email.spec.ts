import { request as playwrightRequest, type APIRequestContext, type Page } from "@playwright/test";
import { expectAxeClean } from "../support/axe";
import { E2E_ADMIN, E2E_BASE_URL, E2E_MAIL_URL } from "../support/e2e-env";
import { expect, gotoHydrated, randomIp, randomMobile, test } from "../support/fixtures";
import type { CapturedMail } from "../support/smtp-capture";

test.describe.configure({ mode: "default" });

const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;

async function mailsTo(request: APIRequestContext, email: string) {
  return (await (await request.get(`${E2E_MAIL_URL}?to=${encodeURIComponent(email)}`)).json()) as CapturedMail[];
}

/** Signs up through the newsletter form with JavaScript off and returns the mailed confirmation link. */
async function signUp(page: Page, request: APIRequestContext, email: string) {
  await page.goto("/home#newsletter");
  const form = page.locator("#newsletter form");
  await form.getByLabel("First Name").fill("Martha");
  await form.getByLabel("Last Name").fill("Washington");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Phone", { exact: true }).fill(randomMobile());
  await form.getByLabel(/I agree to the/).check();
  await form.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByText("Successfully Subscribed!")).toBeVisible();
  await expect(page.getByText("Check Your Inbox")).toBeVisible();
  await expect.poll(async () => (await mailsTo(request, email)).length, { timeout: 15_000 }).toBe(1);
  const [mail] = await mailsTo(request, email);
  const link = mail!.links.find((url) => url.includes("/newsletter/confirm?token="));
  expect(link, mail!.text).toBeTruthy();
  return link!.replace(/^https?:\/\/[^/]+/, "");
}

test.describe("a reader's newsletter subscription", () => {
  test.use({ javaScriptEnabled: false });

  test("opening the confirmation link changes nothing; the button confirms once; the preferences page unsubscribes and brings back", async ({ page, request }) => {
    const email = uniqueEmail("confirm");
    const link = await signUp(page, request, email);

    // A mail scanner opening the link (twice) confirms nothing.
    for (let i = 0; i < 2; i++) {
      const scanned = await request.get(link);
      expect(scanned.status()).toBe(200);
      expect(await scanned.text()).toContain("Confirm my subscription");
    }
    await page.goto(link);
    await expect(page.getByText(email)).toBeVisible();
    await page.getByRole("button", { name: "Confirm my subscription" }).click();
    await expect(page.getByText("Subscription Confirmed")).toBeVisible();
    const preferences = await page.getByRole("link", { name: "Manage your subscription" }).getAttribute("href");

    await page.goto(link);
    await expect(page.getByText("Already Confirmed")).toBeVisible();
    await expect(page.getByRole("button", { name: "Confirm my subscription" })).toHaveCount(0);

    await page.goto(preferences!);
    await expect(page.getByTestId("newsletter-status")).toHaveText("You are subscribed to our newsletter.");
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(page.getByText("You will receive no more newsletters from us.")).toBeVisible();
    await expect(page.getByTestId("newsletter-status")).toHaveText("You are unsubscribed: we send you no newsletters.");
    await page.getByRole("button", { name: "Subscribe again" }).click();
    await expect(page.getByTestId("newsletter-status")).toHaveText("You are subscribed to our newsletter.");
  });

  test("a POST with the token only in the form (no ?token= in the address) answers 200 with what it did", async ({ page, request }) => {
    const email = uniqueEmail("bare-post");
    const token = new URL(await signUp(page, request, email), E2E_BASE_URL).searchParams.get("token")!;
    const confirmed = await request.post("/newsletter/confirm", { form: { token } });
    expect(confirmed.status()).toBe(200);
    const page1 = await confirmed.text();
    expect(page1).toContain("Subscription Confirmed");
    const emailToken = /href="\/newsletter\/preferences\?token=([^"]+)"/.exec(page1)![1]!;

    const unsubscribed = await request.post("/newsletter/preferences", { form: { token: emailToken, intent: "unsubscribe" } });
    expect(unsubscribed.status()).toBe(200);
    expect(await unsubscribed.text()).toContain("You will receive no more newsletters from us.");
    const back = await request.post("/newsletter/preferences", { form: { token: emailToken, intent: "resubscribe" } });
    expect(back.status()).toBe(200);
    expect(await (await request.get(`/newsletter/preferences?token=${emailToken}`)).text()).toContain("You are subscribed to our newsletter.");
  });

  test("the one-click unsubscribe POST works without cookies or a page; a GET only leads to the page", async ({ page, request }) => {
    const email = uniqueEmail("oneclick");
    await page.goto(await signUp(page, request, email));
    await page.getByRole("button", { name: "Confirm my subscription" }).click();
    const preferences = (await page.getByRole("link", { name: "Manage your subscription" }).getAttribute("href"))!;
    const token = new URL(preferences, E2E_BASE_URL).searchParams.get("token")!;

    const viaGet = await request.get(`/newsletter/unsubscribe?token=${token}`, { maxRedirects: 0 });
    expect(viaGet.status()).toBe(302);
    expect(viaGet.headers().location).toBe(`/newsletter/preferences?token=${token}`);

    // As a mail provider does it: no cookies, no Origin, the RFC 8058 body.
    const provider = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: { "X-Forwarded-For": randomIp() } });
    const answer = await provider.post(`/newsletter/unsubscribe?token=${token}`, {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      data: "List-Unsubscribe=One-Click",
    });
    expect(answer.status()).toBe(200);
    expect(await answer.text()).toBe("You are unsubscribed.");
    expect((await provider.post(`/newsletter/unsubscribe?token=${"x".repeat(43)}`, { headers: { "Content-Type": "application/x-www-form-urlencoded" }, data: "List-Unsubscribe=One-Click" })).status()).toBe(404);
    await provider.dispose();

    await page.goto(preferences);
    await expect(page.getByTestId("newsletter-status")).toHaveText("You are unsubscribed: we send you no newsletters.");
  });
});

test("the confirmation and preferences pages pass axe", async ({ page, request }) => {
  const email = uniqueEmail("axe");
  const posted = await request.post("/home", {
    form: { intent: "newsletter", firstName: "Dolley", lastName: "Madison", email, phone: randomMobile(), termsConsent: "on" },
  });
  expect(posted.status()).toBe(200);
  await expect.poll(async () => (await mailsTo(request, email)).length, { timeout: 15_000 }).toBe(1);
  const link = (await mailsTo(request, email))[0]!.links.find((url) => url.includes("/newsletter/confirm?token="))!.replace(/^https?:\/\/[^/]+/, "");
  await page.goto(link);
  await expectAxeClean(page);
  await page.getByRole("button", { name: "Confirm my subscription" }).click();
  await expect(page.getByText("Subscription Confirmed")).toBeVisible();
  await expectAxeClean(page);
  await page.getByRole("link", { name: "Manage your subscription" }).click();
  await expect(page.getByTestId("newsletter-status")).toBeVisible();
  await expectAxeClean(page);
});

test("staff write an issue, preview it, send a test with both parts and the unsubscribe headers", async ({ page, request }) => {
  test.setTimeout(90_000);
  await gotoHydrated(page, `/auth?redirectTo=${encodeURIComponent("/admin/newsletter")}`);
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/newsletter/);
  await page.goto("/admin/newsletter");
  await expectAxeClean(page);

  const subject = `Weekly Brief ${Date.now()}`;
  await page.getByLabel("Subject", { exact: true }).fill(subject);
  await page.getByLabel(/Preview text/).fill("Gold, bonds and what the Fed said");
  await page.getByLabel("Introduction (Markdown)").fill("Dear reader,\n\nThis week **bonds** moved. Read on.");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page).toHaveURL(/\/admin\/newsletter\/\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(subject);
  // The preview frame holds the e-mail (sandboxed, no scripts), not a page of the site.
  await expectAxeClean(page, undefined, { exclude: "iframe" });

  const preview = page.frameLocator('iframe[title="Preview of the e-mail"]');
  await expect(preview.getByRole("heading", { name: subject })).toBeVisible();
  await expect(preview.getByText("This week")).toBeVisible();
  await expect(preview.getByRole("link", { name: "Unsubscribe" })).toBeVisible();
  await page.getByText("Plain-text part").click();
  await expect(page.getByTestId("preview-text")).toContainText("1776 Liberty Way");

  const to = uniqueEmail("staff-test");
  await page.getByLabel("Send a test copy to").fill(to);
  await page.getByRole("button", { name: "Send test" }).click();
  await expect(page.getByText(`A test copy is on its way to ${to}.`).first()).toBeVisible();
  await expect.poll(async () => (await mailsTo(request, to)).length, { timeout: 15_000 }).toBe(1);
  const [mail] = await mailsTo(request, to);
  expect(mail!.subject).toBe(`[TEST] ${subject}`);
  // Links in mail are SITE_URL's, whatever address the admin used: the https public host.
  expect(mail!.headers).toMatch(new RegExp(`^List-Unsubscribe: <${E2E_BASE_URL.replace(/[.]/g, "\\.")}/newsletter/unsubscribe\\?token=[^>]+>, <mailto:`, "m"));
  expect(mail!.headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
  expect(mail!.headers).toMatch(/Content-Type: multipart\/alternative/i);
  expect(mail!.text).toMatch(/Content-Type: text\/plain/i);
  expect(mail!.text).toMatch(/Content-Type: text\/html/i);
  expect(mail!.text).toContain("1776 Liberty Way");

  // Send it: every confirmed subscriber gets one copy; the results fill in.
  const reader = uniqueEmail("reader");
  await request.post("/home", { form: { intent: "newsletter", firstName: "Abigail", lastName: "Adams", email: reader, phone: randomMobile(), termsConsent: "on" } });
  await expect.poll(async () => (await mailsTo(request, reader)).length, { timeout: 15_000 }).toBe(1);
  const confirm = (await mailsTo(request, reader))[0]!.links.find((url) => url.includes("/newsletter/confirm?token="))!;
  const token = new URL(confirm).searchParams.get("token")!;
  const confirmed = await request.post(`/newsletter/confirm?token=${encodeURIComponent(token)}`, { form: { token } });
  expect(confirmed.status()).toBe(200);

  // The answer to Send now is held back: meanwhile the page already says it is sending (never "Draft").
  let release!: () => void;
  const answerHeld = new Promise<void>((resolve) => (release = resolve));
  const sendNowRequest = /\/admin\/newsletter\/\d+\.data/;
  await page.route(sendNowRequest, async (route) => {
    if (route.request().method() === "POST") await answerHeld;
    await route.fallback();
  });
  await page.getByRole("button", { name: "Send now" }).click();
  await expect(page.getByTestId("issue-status")).toHaveText("Status: Sending");
  release();
  await expect(page.getByText("The issue is being sent.")).toBeVisible();
  await page.unroute(sendNowRequest);
  await expect(page.getByTestId("issue-status")).toContainText(/Sending|Sent/);
  await expect.poll(async () => (await mailsTo(request, reader)).filter((m) => m.subject === subject).length, { timeout: 20_000 }).toBe(1);
  await expect
    .poll(async () => {
      await page.reload();
      const planned = Number((await page.getByTestId("result-planned").textContent())?.replace(/,/g, ""));
      const sent = Number((await page.getByTestId("result-sent").textContent())?.replace(/,/g, ""));
      return planned > 0 && sent === planned;
    }, { timeout: 20_000 })
    .toBe(true);
  await expect(page.getByTestId("issue-status")).toContainText("Sent");
  const copy = (await mailsTo(request, reader)).find((m) => m.subject === subject)!;
  expect(copy.headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
  expect(copy.links.some((url) => /\/l\/[A-Za-z0-9]{7,}/.test(url))).toBe(true);
});

test("a signed Mailgun bounce suppresses the address; an unsigned or forged one changes nothing", async ({ request }) => {
  const { createHmac, randomBytes } = await import("node:crypto");
  const email = uniqueEmail("bounce");
  await request.post("/home", { form: { intent: "newsletter", firstName: "John", lastName: "Hancock", email, phone: randomMobile(), termsConsent: "on" } });
  await expect.poll(async () => (await mailsTo(request, email)).length, { timeout: 15_000 }).toBe(1);
  const confirm = (await mailsTo(request, email))[0]!.links.find((url) => url.includes("/newsletter/confirm?token="))!;
  const token = new URL(confirm).searchParams.get("token")!;
  const confirmed = await request.post(`/newsletter/confirm?token=${encodeURIComponent(token)}`, { form: { token } });
  const preferences = /href="(\/newsletter\/preferences\?token=[^"]+)"/.exec(await confirmed.text())![1]!;

  const event = (id: string) => ({ id, event: "failed", severity: "permanent", recipient: email });
  const signed = (key: string, id: string) => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = randomBytes(25).toString("hex");
    return { signature: { timestamp, token: nonce, signature: createHmac("sha256", key).update(timestamp + nonce).digest("hex") }, "event-data": event(id) };
  };
  expect((await request.post("/api/email/events/mailgun", { data: { "event-data": event("e1") } })).status()).toBe(400);
  expect((await request.post("/api/email/events/mailgun", { data: signed("not-the-signing-key-000000", "e2") })).status()).toBe(403);
  expect(await (await request.get(preferences)).text()).toContain("You are subscribed to our newsletter.");

  const accepted = await request.post("/api/email/events/mailgun", { data: signed("e2e-mailgun-signing-key-0123456789", "e3") });
  expect(accepted.status()).toBe(200);
  expect(await accepted.json()).toEqual({ applied: true, status: "bounced" });
  expect(await (await request.get(preferences)).text()).toContain("Mail to this address bounced, so we no longer send to it.");
});
