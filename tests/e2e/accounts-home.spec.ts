import webhooks from "twilio/lib/webhooks/webhooks.js";
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { expectAxeClean } from "../support/axe";
import { E2E_ADMIN, E2E_BASE_URL, E2E_MAIL_URL, E2E_TWILIO } from "../support/e2e-env";
import { expect, gotoHydrated, randomIp, randomMobile, signInAsAdmin, test } from "../support/fixtures";
import type { CapturedMail } from "../support/smtp-capture";
import type { SentMessage } from "../support/twilio-stand-in";
import { nuErrors } from "../support/nu-check";
import { ARTICLES } from "../support/public-routes";

const toast = (page: Page) => page.locator("[data-sonner-toast]");
const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
const ARTICLE = `/articles/${ARTICLES[0]!.slug}`;
const PASSWORD = "Sturdy-Oak-Tree-47";

async function mailsTo(request: APIRequestContext, email: string) {
  return (await (await request.get(`${E2E_MAIL_URL}?to=${encodeURIComponent(email)}`)).json()) as CapturedMail[];
}

async function textsTo(request: APIRequestContext, e164: string) {
  return ((await (await request.get(`${E2E_TWILIO.url}/__messages`)).json()) as SentMessage[]).filter((m) => m.to === e164);
}

async function signIn(page: Page, email: string, password: string, path = "/auth") {
  await gotoHydrated(page, path);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

/** A verified reader, signed in on `page` (the verification link signs them in). */
async function newReader(page: Page, request: APIRequestContext, label: string) {
  const email = uniqueEmail(label);
  await gotoHydrated(page, "/auth?tab=signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(toast(page).filter({ hasText: "Account Created!" }).first()).toBeVisible();
  await expect.poll(async () => (await mailsTo(request, email)).length, { timeout: 15_000 }).toBe(1);
  const link = (await mailsTo(request, email))[0]!.links.find((url) => url.includes("/api/auth/verify-email"));
  await page.goto(link!);
  await expect(page.getByRole("link", { name: "Account", exact: true }).first()).toBeAttached();
  return email;
}

/** A second browser (another device) signed in as the same person. */
async function secondDevice(browser: Browser, email: string, password: string) {
  const context = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": randomIp() } });
  const page = await context.newPage();
  await signIn(page, email, password);
  await expect(page).toHaveURL(/:\d+\/(\?notice=signedIn)?$/);
  return { page, close: () => context.close() };
}

const header = (page: Page) => page.getByRole("navigation", { name: "Main" });
const scriptTag = /<script(?![^>]*application\/ld\+json)[^>]*>/;

test.describe("the signed-in state on every page", () => {
  test("anonymous visitors get the shared prerendered page with no script and a footer Sign In link", async ({ page, request }) => {
    const response = await request.get(ARTICLE);
    expect(response.headers()["etag"]).toBeTruthy();
    expect(response.headers()["cache-control"]).toBe("public, max-age=0, must-revalidate");
    const html = await response.text();
    expect(html).not.toMatch(scriptTag);
    expect(html).not.toContain(">Account<");
    // The Sign In link leads back to the page it is on (built when the page is rendered).
    expect(html).toContain(`href="/auth?redirectTo=${encodeURIComponent(ARTICLE)}"`);

    for (const path of [ARTICLE, "/", "/opt-in"]) {
      await page.goto(path);
      await expect(page.getByRole("link", { name: "Account", exact: true })).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Sign Out" })).toHaveCount(0);
      await expect(page.getByRole("contentinfo").getByRole("link", { name: "Sign In" })).toBeVisible();
    }
  });

  test("a reader sees Account and Sign Out on an article, the home page, the opt-in page and the advertorial; never a shared copy", async ({ page, request }) => {
    // The HTML checker starts a Java process per page.
    test.setTimeout(90_000);
    await newReader(page, request, "header");
    for (const path of [ARTICLE, "/", "/opt-in", "/gold"]) {
      const response = await page.goto(path);
      expect(response?.headers()["cache-control"], path).toBe("private, no-store");
      expect(response?.headers()["vary"], path).toMatch(/Cookie/);
      await expect(page.getByRole("link", { name: "Account", exact: true }), path).toBeVisible();
      await expect(page.getByRole("button", { name: "Sign Out" }), path).toBeVisible();
      await expect(page.getByRole("link", { name: "Admin", exact: true }), path).toHaveCount(0);
    }
    // The signed-in header (its sign-out form) keeps the pages valid HTML: the article's header and
    // the advertorial’s own bar, checked side by side.
    const signedInPages = await Promise.all([ARTICLE, "/gold"].map(async (path) => (await page.request.get(path)).text()));
    for (const [index, errors] of (await Promise.all(signedInPages.map(nuErrors))).entries()) expect(errors, [ARTICLE, "/gold"][index]).toEqual([]);
    // A client-side move to a prerendered page fetches its .data per request too: still signed in.
    await gotoHydrated(page, "/home");
    const data = page.waitForResponse((response) => response.url().includes("/about.data"));
    await header(page).getByRole("link", { name: "ABOUT" }).click();
    expect((await data).headers()["cache-control"]).toBe("private, no-store");
    await expect(page).toHaveURL(/\/about$/);
    await expect(header(page).getByRole("link", { name: "Account", exact: true })).toBeVisible();
    // The article rendered for a signed-in reader still ships no JavaScript.
    const html = await (await page.request.get(ARTICLE)).text();
    expect(html).not.toMatch(scriptTag);
    expect(html).toContain(">Account<");

    await page.goto(ARTICLE);
    await page.getByRole("button", { name: "Sign Out" }).click();
    await expect(page).toHaveURL(/\/auth(\?notice=signedOut)?$/);
    await page.goto(ARTICLE);
    await expect(header(page).getByRole("link", { name: "Account", exact: true })).toHaveCount(0);
  });

  test("the advertorial's own header shows an anonymous visitor no account links, and a reader's Sign Out works there", async ({ page, request }) => {
    await page.goto("/gold");
    await expect(header(page).getByRole("link", { name: "Account", exact: true })).toHaveCount(0);
    await newReader(page, request, "gold");
    await page.goto("/gold");
    await expect(header(page).getByRole("link", { name: "Account", exact: true })).toBeVisible();
    await header(page).getByRole("button", { name: "Sign Out" }).click();
    await expect(page).toHaveURL(/\/auth(\?notice=signedOut)?$/);
    await page.goto("/gold");
    await expect(header(page).getByRole("link", { name: "Account", exact: true })).toHaveCount(0);
  });

  test("Sign In from an article's footer comes back to the article, as a forced sign-in does", async ({ page, request }) => {
    const email = await newReader(page, request, "footer");
    await page.context().clearCookies();
    await page.goto(ARTICLE);
    const link = page.getByRole("contentinfo").getByRole("link", { name: "Sign In" });
    await expect(link).toHaveAttribute("href", `/auth?redirectTo=${encodeURIComponent(ARTICLE)}`);
    await link.click();
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(new RegExp(`${ARTICLE}(\\?notice=signedIn)?$`));
    await expect(header(page).getByRole("link", { name: "Account", exact: true })).toBeVisible();
    // The home page's link needs no way back: a sign-in without one lands on the home page.
    await page.context().clearCookies();
    await page.goto("/");
    await expect(page.getByRole("contentinfo").getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/auth");
  });

  test("staff see Admin in the header and land on the staff home after signing in", { tag: "@header-styles" }, async ({ page }) => {
    await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
    await expect(page).toHaveURL(/\/admin(\?notice=signedIn)?$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dashboard");
    await page.goto(ARTICLE);
    await expect(header(page).getByRole("link", { name: "Admin", exact: true })).toBeVisible();
    await header(page).getByRole("link", { name: "Admin", exact: true }).click();
    await expect(page).toHaveURL(/\/admin$/);
  });

  test("a reader lands on the home page, or on the page that sent them to sign in", async ({ page, request, browser }) => {
    const email = await newReader(page, request, "landing");
    const other = await secondDevice(browser, email, PASSWORD);
    await other.close();
    await page.context().clearCookies();
    await signIn(page, email, PASSWORD, `/auth?redirectTo=${encodeURIComponent("/account")}`);
    await expect(page).toHaveURL(/\/account(\?notice=signedIn)?$/);
  });
});

test.describe("the staff home", () => {
  test("shows the morning figures, which follow new sign-ups, opt-outs, messages and changes", async ({ page, request }) => {
    await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password, "/auth?redirectTo=%2Fadmin%2F");
    await expect(page).toHaveURL(/\/admin\/(\?notice=signedIn)?$/);
    const figure = async (testId: string) => Number((await page.getByTestId(testId).innerText()).replace(/\D+/g, " ").trim().split(" ").pop());
    // allInnerTexts does not wait: the row must be there first (read too early it gave NaN once).
    const cells = async (testId: string, row: number) => {
      const tds = page.getByTestId(testId).locator("tbody tr").nth(row).locator("td");
      await expect(tds.first()).toBeVisible();
      return (await tds.allInnerTexts()).map((text) => Number(text.replace(/,/g, "")));
    };
    const before = { sms: await cells("new-subscribers", 0), smsOut: await cells("opt-outs", 0), email: await cells("new-subscribers", 1), unread: await figure("unread-inbox") };

    // Two SMS opt-ins, one of which texts STOP; one newsletter sign-up; one contact message.
    const phones = [randomMobile(), randomMobile()];
    for (const phone of phones) {
      const answer = await request.post("/api/phone-optin", { data: { firstName: "Paul", lastName: "Revere", phone, clickId: null, smsConsent: true, termsConsent: true } });
      expect(answer.status()).toBe(200);
    }
    const params = { MessageSid: `SM${Date.now().toString(16).padStart(32, "0")}`, AccountSid: E2E_TWILIO.accountSid, From: `+1${phones[0]!.replace(/\D/g, "")}`, To: E2E_TWILIO.from, Body: "STOP", NumMedia: "0" };
    const signature = webhooks.getExpectedTwilioSignature(E2E_TWILIO.authToken, `${E2E_BASE_URL}/api/sms/inbound`, params);
    expect((await request.post("/api/sms/inbound", { form: params, headers: { "X-Twilio-Signature": signature } })).status()).toBe(200);
    const email = uniqueEmail("dash");
    await page.goto("/home#newsletter");
    const form = page.locator("#newsletter form");
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await form.getByLabel("First Name").fill("Abigail");
    await form.getByLabel("Last Name").fill("Adams");
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Phone", { exact: true }).fill(randomMobile());
    await form.getByLabel(/I agree to the/).check();
    await form.getByRole("button", { name: "Subscribe" }).click();
    await expect(toast(page).filter({ hasText: "Successfully Subscribed!" }).first()).toBeVisible();
    const contact = await request.post("/contact", {
      form: { name: "Betsy Ross", email: "betsy@example.com", subject: `Flag ${Date.now()}`, message: "A question about bonds." },
      headers: { Origin: new URL(page.url()).origin },
      maxRedirects: 0,
    });
    expect(contact.status()).toBeLessThan(400);

    await gotoHydrated(page, "/admin");
    const after = { sms: await cells("new-subscribers", 0), smsOut: await cells("opt-outs", 0), email: await cells("new-subscribers", 1), unread: await figure("unread-inbox") };
    // Other browser tests sign people up at the same time: at least ours, in every period.
    for (const period of [0, 1, 2]) {
      expect(after.sms[period]!).toBeGreaterThanOrEqual(before.sms[period]! + 2);
      expect(after.email[period]!).toBeGreaterThanOrEqual(before.email[period]! + 1);
      expect(after.smsOut[period]!).toBeGreaterThanOrEqual(before.smsOut[period]! + 1);
    }
    expect(after.unread).toBeGreaterThanOrEqual(before.unread + 1);
    // The welcome texts went out through the outbox and are counted as sent.
    await expect.poll(async () => (await textsTo(request, `+1${phones[1]!.replace(/\D/g, "")}`)).length).toBe(1);
    await page.reload();
    expect(await figure("texts-sent")).toBeGreaterThanOrEqual(1);
    await expect(page.getByTestId("campaigns-empty")).toBeVisible();

    // The inbox marks what staff have seen as read.
    await page.getByTestId("unread-inbox").click();
    await expect(page).toHaveURL(/\/admin\/inbox$/);
    await gotoHydrated(page, "/admin");
    expect(await figure("unread-inbox")).toBeLessThan(after.unread);

    // A change shows at the top of the recent changes.
    await page.goto("/admin/dnc");
    const dncPhone = randomMobile();
    await page.getByLabel("Phone").fill(dncPhone);
    await page.getByRole("button", { name: "Add to list" }).click();
    await expect(page.getByText("is now on our Do-Not-Call list").first()).toBeVisible();
    await gotoHydrated(page, "/admin");
    // In words, with the list linked (other tests add changes meanwhile: find ours by its number).
    const digits = dncPhone.replace(/\D/g, "");
    const spoken = `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
    const change = page.getByTestId("audit").locator("li").filter({ hasText: spoken });
    await expect(change).toContainText(`${E2E_ADMIN.email} added ${spoken} to the Do-Not-Call list`);
    await expect(change.getByRole("link", { name: "the Do-Not-Call list" })).toHaveAttribute("href", "/admin/dnc");
  });

  test("says what each figure counts; a stop on the account page and a deleted account are newsletter opt-outs", async ({ page, request, browser }) => {
    test.setTimeout(120_000);
    const admin = await (await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": randomIp() } })).newPage();
    await signIn(admin, E2E_ADMIN.email, E2E_ADMIN.password, "/auth?redirectTo=%2Fadmin");
    await expect(admin).toHaveURL(/\/admin(\?notice=signedIn)?$/);
    await gotoHydrated(admin, "/admin");
    await admin.getByText("What each figure counts").click();
    await expect(admin.getByTestId("figure-definitions")).toContainText("a stop on their account page or the deletion of their account");
    const newsletterOptOuts = async () =>
      (await admin.getByTestId("opt-outs").locator("tbody tr").nth(1).locator("td").allInnerTexts()).map((text) => Number(text.replace(/,/g, "")));
    const before = await newsletterOptOuts();

    // A reader subscribes, confirms, stops on the account page, signs up again and deletes the account.
    const email = await newReader(page, request, "leaving-subscriber");
    const signUp = async () => {
      await gotoHydrated(page, "/home#newsletter");
      const form = page.locator("#newsletter form");
      await form.getByLabel("First Name").fill("Mercy");
      await form.getByLabel("Last Name").fill("Warren");
      await form.getByLabel("Email").fill(email);
      await form.getByLabel("Phone", { exact: true }).fill(randomMobile());
      await form.getByLabel(/I agree to the/).check();
      await form.getByRole("button", { name: "Subscribe" }).click();
      await expect(toast(page).filter({ hasText: "Successfully Subscribed!" }).first()).toBeVisible();
    };
    await signUp();
    await expect.poll(async () => (await mailsTo(request, email)).some((mail) => mail.links.some((url) => url.includes("/newsletter/confirm?token="))), { timeout: 15_000 }).toBe(true);
    await page.goto((await mailsTo(request, email)).flatMap((mail) => mail.links).find((url) => url.includes("/newsletter/confirm?token="))!);
    await page.getByRole("button", { name: "Confirm my subscription" }).click();
    await expect(page.getByText("Subscription Confirmed")).toBeVisible();
    await gotoHydrated(page, "/account");
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(page.getByTestId("subscription-email-status")).toHaveText("Stopped");
    await signUp();
    await gotoHydrated(page, "/account");
    await expect(page.getByTestId("subscription-email-status")).toHaveText("Waiting for confirmation (check your inbox)");
    await page.getByRole("button", { name: "Delete My Account" }).click();
    await expect(page).toHaveURL(/:\d+\/(\?notice=accountDeleted)?$/);

    await admin.reload();
    const after = await newsletterOptOuts();
    // Other browser tests may add opt-outs of their own meanwhile: at least these two, in every period.
    for (const period of [0, 1, 2]) expect(after[period]!).toBeGreaterThanOrEqual(before[period]! + 2);
    await admin.context().close();
  });

  test("a reader gets 403 at /admin and /admin/", async ({ page, request }) => {
    await newReader(page, request, "not-staff");
    for (const path of ["/admin", "/admin/"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(403);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Access denied");
    }
  });
});

test.describe("a reader's account page", () => {
  test("changes the e-mail address once the new one is verified", async ({ page, request }) => {
    await newReader(page, request, "old-address");
    const next = uniqueEmail("new-address");
    await gotoHydrated(page, "/account");
    await page.getByLabel("New e-mail address").fill(next);
    await page.getByLabel("Your password").fill("not-my-password");
    await page.getByRole("button", { name: "Change E-mail" }).click();
    await expect(toast(page).filter({ hasText: "That password is not right." }).first()).toBeVisible();
    await page.getByLabel("Your password").fill(PASSWORD);
    await page.getByRole("button", { name: "Change E-mail" }).click();
    await expect(toast(page).filter({ hasText: "Check Your New Address" }).first()).toBeVisible();
    await expect.poll(async () => (await mailsTo(request, next)).length, { timeout: 15_000 }).toBe(1);
    const link = (await mailsTo(request, next))[0]!.links.find((url) => url.includes("/api/auth/verify-email"));
    await page.goto(link!);
    await expect(page).toHaveURL(/\/account(\?notice=emailChanged)?$/);
    await expect(page.getByTestId("account-email")).toHaveText(next);
  });

  test("changing the password signs out the other device; sign out everywhere ends this one too", async ({ page, request, browser }) => {
    // Three password hashes, two devices and an e-mail: about 30 s of steps on two busy cores.
    test.slow();
    const email = await newReader(page, request, "password");
    const other = await secondDevice(browser, email, PASSWORD);
    await gotoHydrated(page, "/account");
    await expect(page.getByTestId("sessions").locator("li")).toHaveCount(2);
    await page.getByLabel("Current password").fill(PASSWORD);
    await page.getByLabel("New password").fill("Granite-Ridge-Lantern-88");
    await page.getByRole("button", { name: "Change Password" }).click();
    await expect(toast(page).filter({ hasText: "Password Changed" }).first()).toBeVisible();
    // The owner is told by e-mail.
    await expect.poll(async () => (await mailsTo(request, email)).map((mail) => mail.subject), { timeout: 15_000 }).toContain("Your Patriot Investor password was changed");

    await other.page.goto("/account");
    await expect(other.page).toHaveURL(/\/auth\?redirectTo=%2Faccount/);
    await other.close();
    await page.reload();
    await expect(page.getByTestId("sessions").locator("li")).toHaveCount(1);

    await page.getByRole("button", { name: "Sign Out Everywhere" }).click();
    await expect(page).toHaveURL(/\/auth(\?notice=signedOutEverywhere)?$/);
    await expect(toast(page).filter({ hasText: "Signed Out Everywhere" }).first()).toBeVisible();
    await page.goto("/account");
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Faccount/);
    await signIn(page, email, "Granite-Ridge-Lantern-88");
    await expect(page).toHaveURL(/:\d+\/(\?notice=signedIn)?$/);
  });

  test("shows and stops the newsletter and SMS subscriptions, the phone confirmed by a texted code", async ({ page, request, browser }) => {
    const email = await newReader(page, request, "subscriber");
    const phone = randomMobile();
    const e164 = `+1${phone.replace(/\D/g, "")}`;
    await gotoHydrated(page, "/home#newsletter");
    const form = page.locator("#newsletter form");
    await form.getByLabel("First Name").fill("Martha");
    await form.getByLabel("Last Name").fill("Washington");
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Phone", { exact: true }).fill(phone);
    await form.getByLabel(/recurring automated marketing text messages/).check();
    await form.getByLabel(/I agree to the/).check();
    await form.getByRole("button", { name: "Subscribe" }).click();
    await expect(toast(page).filter({ hasText: "Successfully Subscribed!" }).first()).toBeVisible();

    await gotoHydrated(page, "/account");
    // The newsletter is confirmed from its own e-mail (confirmed opt-in) before it is active.
    await expect(page.getByTestId("subscription-email-status")).toHaveText("Waiting for confirmation (check your inbox)");
    await expect.poll(async () => (await mailsTo(request, email)).some((mail) => mail.links.some((url) => url.includes("/newsletter/confirm?token="))), { timeout: 15_000 }).toBe(true);
    const confirmLink = (await mailsTo(request, email)).flatMap((mail) => mail.links).find((url) => url.includes("/newsletter/confirm?token="))!;
    await page.goto(confirmLink);
    await page.getByRole("button", { name: "Confirm my subscription" }).click();
    await expect(page.getByText("Subscription Confirmed")).toBeVisible();
    await gotoHydrated(page, "/account");
    await expect(page.getByTestId("subscription-email-status")).toHaveText("Active");
    await expect(page.getByTestId("subscription-sms-status")).toHaveCount(0);

    await page.getByLabel("Mobile number").fill(phone);
    await page.getByRole("button", { name: "Text Me a Code" }).click();
    await expect(toast(page).filter({ hasText: "Code Sent" }).first()).toBeVisible();
    let code = "";
    await expect
      .poll(async () => {
        const text = (await textsTo(request, e164)).map((m) => /code is (\d{6})/.exec(m.body)?.[1]).find(Boolean);
        code = text ?? "";
        return code;
      })
      .toMatch(/^\d{6}$/);
    // A wrong code: the page says so and keeps asking for the code (no new code needed).
    await page.getByLabel(/Code texted to/).fill(code === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: "Confirm Number" }).click();
    await expect(toast(page).filter({ hasText: "That code is not right." }).first()).toBeVisible();
    await expect(page.getByLabel(/Code texted to/)).toBeVisible();
    await expect(page.getByText("That code is not right. Check the text and type it again (3 tries per code).").first()).toBeVisible();
    await expect(page.getByLabel("Mobile number")).toHaveCount(0);
    await page.getByLabel(/Code texted to/).fill(code);
    await page.getByRole("button", { name: "Confirm Number" }).click();
    await expect(toast(page).filter({ hasText: "Phone Confirmed" }).first()).toBeVisible();
    await expect(page.getByTestId("subscription-sms-status")).toHaveText("Active");
    // The confirmation is evidence on the SMS subscription's certificate, with when the page was sent.
    const admin = await browser.newContext({ ignoreHTTPSErrors: true, extraHTTPHeaders: { "X-Forwarded-For": randomIp() } });
    const staff = await admin.newPage();
    await signInAsAdmin(staff, "/admin/subscribers");
    await staff.goto(`/admin/subscribers?q=${encodeURIComponent(e164)}`);
    await staff.locator("tbody tr").filter({ hasText: e164 }).getByRole("link", { name: "Certificate" }).click();
    const confirmed = staff.locator(".certificate-event").filter({ has: staff.getByRole("heading", { name: /Number confirmed by its holder/ }) });
    await expect(confirmed).toContainText("Confirms the number is the person’s");
    await expect(confirmed).toContainText(/Form page shown \(server\)\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC; the form came back/);
    await admin.close();

    await page.getByRole("button", { name: "Stop SMS Alerts" }).click();
    await expect(page.getByTestId("subscription-sms-status")).toHaveText("Stopped");
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(page.getByTestId("subscription-email-status")).toHaveText("Stopped");
  });

  test("downloads the data as JSON, then deletes the account with the password", async ({ page, request }) => {
    const email = await newReader(page, request, "leaving");
    await gotoHydrated(page, "/account");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-data").click()]);
    expect(download.suggestedFilename()).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(readFileSync((await download.path())!, "utf8")) as { account: { email: string }; sessions: unknown[]; consentRecords: unknown[] };
    expect(exported.account.email).toBe(email);
    expect(exported.sessions.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(exported)).not.toMatch(/"token"|"password"/);

    await expect(page.getByText("The records of the consent you gave and withdrew are kept")).toBeVisible();
    await page.getByLabel("Password (not needed within 10 minutes of signing in)").fill("not-my-password");
    await page.getByRole("button", { name: "Delete My Account" }).click();
    await expect(toast(page).filter({ hasText: "That password is not right." }).first()).toBeVisible();
    await page.getByLabel("Password (not needed within 10 minutes of signing in)").fill(PASSWORD);
    await page.getByRole("button", { name: "Delete My Account" }).click();
    await expect(page).toHaveURL(/:\d+\/(\?notice=accountDeleted)?$/);
    await expect(page.getByRole("status").filter({ hasText: "Account Deleted" })).toBeVisible();
    await signIn(page, email, PASSWORD);
    await expect(toast(page).filter({ hasText: "Invalid email or password." }).first()).toBeVisible();
  });

  test("deletes the account without the password right after signing in; the home page keeps saying so, with and without JavaScript", async ({ page, request, browser }) => {
    test.setTimeout(120_000);
    const email = await newReader(page, request, "fresh-leaver");
    await gotoHydrated(page, "/account");
    await page.getByRole("button", { name: "Delete My Account" }).click();
    await expect(page).toHaveURL(/:\d+\/(\?notice=accountDeleted)?$/);
    // A banner on the page, not a toast that fades after a few seconds.
    const notice = page.getByRole("status").filter({ hasText: "Account Deleted" });
    await expect(notice).toContainText("Your account and its sign-in data were deleted.");
    await page.waitForTimeout(6_000);
    await expect(notice).toBeVisible();
    await expect(toast(page)).toHaveCount(0);
    // The address loses the notice: a reload does not say it again.
    await expect(page).toHaveURL(/:\d+\/$/);
    await signIn(page, email, PASSWORD);
    await expect(toast(page).filter({ hasText: "Invalid email or password." }).first()).toBeVisible();

    // Without JavaScript: the same banner.
    await newReader(page, request, "no-script-leaver");
    const context = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState(), extraHTTPHeaders: { "X-Forwarded-For": randomIp() } });
    const plain = await context.newPage();
    await plain.goto("/account");
    await plain.getByRole("button", { name: "Delete My Account" }).click();
    await expect(plain).toHaveURL(/:\d+\/\?notice=accountDeleted$/);
    await expect(plain.getByRole("status").filter({ hasText: "Account Deleted" })).toContainText("Your account and its sign-in data were deleted.");
    await context.close();
  });

  test("sends anonymous visitors to sign in, with the way back", async ({ page }) => {
    await page.goto("/account");
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Faccount/);
    const download = await page.request.get("/account/data.json", { maxRedirects: 0 });
    expect(download.status()).toBe(302);
  });
});

test.describe("accessibility of the new pages", () => {
  for (const path of ["/admin", "/account"]) {
    test(`${path}: no axe violations`, async ({ page, request }) => {
      if (path === "/admin") {
        await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
        await expect(page).toHaveURL(/\/admin/);
      } else {
        await newReader(page, request, "axe");
      }
      await gotoHydrated(page, path);
      await expectAxeClean(page);
    });
  }
});
