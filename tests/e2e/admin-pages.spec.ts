import type { APIRequestContext, Locator, Page } from "@playwright/test";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { E2E_ADMIN, E2E_MAIL_URL, E2E_TWILIO } from "../support/e2e-env";
import { expectAxeClean } from "../support/axe";
import { expect, gotoHydrated, randomMobile, test } from "../support/fixtures";
import type { CapturedMail } from "../support/smtp-capture";
import { nuErrors } from "../support/nu-check";
import { totpCode } from "../support/totp";

test.describe.configure({ mode: "default" });

async function signIn(page: Page, email: string, password: string, returnTo = "/admin/sms") {
  await gotoHydrated(page, `/auth?redirectTo=${encodeURIComponent(returnTo)}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(new RegExp(returnTo.replace(/[/?]/g, "\\$&")));
}

/** Reads a QR code the way a phone camera would: from pixels on the screen. */
async function decodeQr(element: Locator) {
  const png = PNG.sync.read(await element.screenshot());
  const code = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height);
  return code?.data ?? null;
}

async function mailsTo(request: APIRequestContext, email: string) {
  return (await (await request.get(`${E2E_MAIL_URL}?to=${encodeURIComponent(email)}`)).json()) as CapturedMail[];
}

test("admin pages show subscribers, consent history, messages, inbox and the DNC list", async ({ page, request }) => {
  // Data to look at: an opt-in and a contact message.
  const phone = randomMobile();
  await request.post("/api/phone-optin", { data: { firstName: "Molly", lastName: "Pitcher", phone, clickId: "click-molly", smsConsent: true, termsConsent: true } });
  const subject = `Question ${Date.now()}`;
  await request.post("/contact", { form: { name: "Mercy Otis", email: "mercy@example.com", subject, message: "About silver." } });
  await request.post("/contact", { form: { name: "Bot", email: "bot@example.com", subject: `Spam ${Date.now()}`, message: "x", website: "http://spam.example" } });

  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/subscribers");
  await page.goto("/admin/subscribers?q=click-molly");
  const row = page.locator("tbody tr").filter({ hasText: "Molly Pitcher" });
  await expect(row).toHaveCount(1);
  await row.getByRole("link", { name: "History" }).click();
  await expect(page.getByRole("heading", { name: "Consent history" })).toBeVisible();
  await expect(page.locator("#history")).toContainText("opt_in");
  await expect(page.locator("#history")).toContainText("By checking this box");
  await expect(page.getByRole("img", { name: /Web opt-ins per day/ })).toBeVisible();

  await page.goto("/admin/messages");
  await expect(page.getByTestId("message-row").filter({ hasText: `+1${phone.replace(/\D/g, "")}` })).toHaveCount(1);

  await page.goto("/admin/inbox");
  await expect(page.getByTestId("inbox-message").filter({ hasText: subject })).toHaveCount(1);
  await expect(page.getByTestId("inbox-message").filter({ hasText: "Spam" })).toHaveCount(0);

  await page.goto("/admin/dnc");
  await expect(page.getByTestId("dnc-federal")).toHaveText("1");
  const before = Number(await page.getByTestId("dnc-internal").textContent());
  await page.getByLabel("Phone").fill("(212) 456-3210");
  await page.getByRole("button", { name: "Add to list" }).click();
  await expect(page.getByTestId("dnc-internal")).toHaveText(String(before + 1));
  await page.getByLabel("Phone").fill("(212) 456-3210");
  await page.getByRole("button", { name: "Remove from list" }).click();
  await expect(page.getByTestId("dnc-internal")).toHaveText(String(before));
});

test("a sign-up figure of /admin/analytics opens the list it counts, both pages valid HTML and axe-clean (decision 157)", async ({ page, request, baseURL }) => {
  // An opt-in from the ad page tagged with a sub-id of its own: one row of the sub-id table.
  const sub = `E2E-${Date.now()}`;
  const phone = randomMobile();
  const referer = `${baseURL}/opt-in?sub1=${sub}&utm_source=e2e-links&utm_campaign=links`;
  const optIn = await request.post("/api/phone-optin", { headers: { referer }, data: { firstName: "Sybil", lastName: "Ludington", phone, smsConsent: true, termsConsent: true } });
  expect(optIn.ok()).toBe(true);

  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/analytics");
  await gotoHydrated(page, "/admin/analytics");
  const figure = page.getByTestId("analytics-signUpsBySubId").getByRole("link", { name: new RegExp(`^1: open the list of these sign-ups \\(SMS list, sub1=${sub}, signed up \\d{4}-\\d{2}-\\d{2} to \\d{4}-\\d{2}-\\d{2}\\)$`) });
  await expect(figure).toHaveText("1");
  await expectAxeClean(page, "/admin/analytics");
  expect(await nuErrors(await (await page.request.get("/admin/analytics")).text())).toEqual([]);

  await figure.click();
  await expect(page).toHaveURL(new RegExp(`/admin/subscribers\\?sub=sub1%3D${sub}&channel=sms&from=`));
  await expect(page.getByRole("heading", { name: "Sign-ups matching (1)" })).toBeVisible();
  await expect(page.getByTestId("sign-up-filter")).toContainText(`SMS list, sub1=${sub}`);
  const rows = page.getByRole("region", { name: "Subscribers table" }).locator("tbody tr");
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText("Sybil Ludington");
  await expectAxeClean(page, "/admin/subscribers filtered");
  expect(await nuErrors(await (await page.request.get(page.url())).text())).toEqual([]);
  const csv = await page.request.get(`/admin/subscribers.csv?sub=sub1%3D${sub}`);
  expect((await csv.text()).split("\r\n").filter(Boolean)).toHaveLength(2);
  await page.getByRole("link", { name: "Clear the filters" }).click();
  await expect(page.getByRole("heading", { name: /^All subscribers/ })).toBeVisible();
});

test("the CSV export is RFC 4180 and safe against spreadsheet formulas", async ({ page, request }) => {
  await request.post("/api/phone-optin", { data: { firstName: '=HYPERLINK("http://evil.example")', lastName: 'Smith, "Jr"', phone: randomMobile(), clickId: "csv", smsConsent: true, termsConsent: true } });
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/subscribers");
  const response = await page.request.get("/admin/subscribers.csv");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("text/csv");
  expect(response.headers()["content-disposition"]).toMatch(/attachment; filename="subscribers-\d{4}-\d{2}-\d{2}\.csv"/);
  const csv = await response.text();
  expect(csv.startsWith("created_at,channel,status,source,first_name,last_name,phone_e164,email,click_id\r\n")).toBe(true);
  expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"")","Smith, ""Jr"""`);
  expect((await request.get("/admin/subscribers.csv", { maxRedirects: 0 })).status()).toBe(302);
});

test("password reset by e-mail: the new password works, the old one and other sessions do not", async ({ page, browser, request }) => {
  const email = `reset-${Date.now()}@example.com`;
  await gotoHydrated(page, "/auth?tab=signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("First-Strong-Pass-9");
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect.poll(async () => (await mailsTo(request, email)).length, { timeout: 15_000 }).toBe(1);
  await page.goto((await mailsTo(request, email))[0]!.links.find((link) => link.includes("verify-email"))!);
  // Signed in here by the verification link: this session must end with the reset.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.context().addCookies(await page.context().cookies());

  await gotoHydrated(page, "/auth/forgot");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Check Your Email" }).first()).toBeVisible();
  await expect.poll(async () => (await mailsTo(request, email)).length, { timeout: 15_000 }).toBe(2);
  const resetLink = (await mailsTo(request, email))[1]!.links.find((link) => link.includes("reset-password"))!;
  await page.goto(resetLink);
  await expect(page).toHaveURL(/\/auth\/reset\?token=/);
  await page.getByLabel("New password").fill("Second-Strong-Pass-9");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page).toHaveURL(/\/auth(\?|$)/);

  const oldTry = await request.post("/api/auth/sign-in/email", { data: { email, password: "First-Strong-Pass-9" } });
  expect(oldTry.status()).toBe(401);
  const newTry = await request.post("/api/auth/sign-in/email", { data: { email, password: "Second-Strong-Pass-9" } });
  expect(newTry.status()).toBe(200);
  const session = await otherPage.request.get("/api/auth/get-session");
  expect(await session.json()).toBeNull();
  await other.close();
});

test("sign-out revokes the session on the server", async ({ page, browser }) => {
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  const cookies = await page.context().cookies();
  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/auth/);
  // The browser drops the cookie too.
  expect((await page.context().cookies()).filter((cookie) => cookie.name.endsWith("session_token"))).toEqual([]);
  const replay = await browser.newContext();
  await replay.addCookies(cookies);
  const replayPage = await replay.newPage();
  await replayPage.goto("/admin/sms");
  await expect(replayPage).toHaveURL(/\/auth\?redirectTo=/);
  await replay.close();
});

test("an admin turns on two-factor sign-in and then needs a code to sign in", async ({ page, request }) => {
  // Sign-up, verification, promotion, setup with a QR decode and axe, then a second sign-in.
  test.setTimeout(120_000);
  const email = `twofa-${Date.now()}@example.com`;
  const password = "Two-Factor-Pass-9";
  await gotoHydrated(page, "/auth?tab=signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect.poll(async () => (await mailsTo(request, email)).length, { timeout: 15_000 }).toBe(1);
  await page.goto((await mailsTo(request, email))[0]!.links.find((link) => link.includes("verify-email"))!);
  // Promote on the People page, as the seeded admin (the admin plugin's own set-role is closed).
  const adminContext = page.context().browser()!.newContext();
  const adminPage = await (await adminContext).newPage();
  await signIn(adminPage, E2E_ADMIN.email, E2E_ADMIN.password);
  const closed = await adminPage.request.post("/api/auth/admin/set-role", { data: { userId: "x", role: "admin" }, headers: { Origin: new URL(adminPage.url()).origin } });
  expect(closed.status()).toBe(404);
  await gotoHydrated(adminPage, `/admin/people?q=${encodeURIComponent(email)}`);
  await adminPage.getByLabel(`Role of ${email}`, { exact: true }).selectOption("admin");
  await adminPage.getByRole("button", { name: `Change the role of ${email}` }).click();
  await expect(adminPage.getByText(`${email} is now admin.`)).toBeVisible();
  await (await adminContext).close();

  await gotoHydrated(page, "/admin/security");
  await page.getByLabel("Your password").fill(password);
  await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  // The QR code is drawn on the server and decodes to the same otpauth:// address the page shows.
  const otpauth = (await page.getByText(/^otpauth:\/\//).textContent())!.trim();
  expect(new URL(otpauth).searchParams.get("secret")).toBe(secret);
  expect(await decodeQr(page.getByRole("img", { name: "QR code for your authenticator app" }))).toBe(otpauth);
  await expectAxeClean(page, "two-factor setup");
  await page.getByLabel("Code from the app").fill(totpCode(secret));
  await page.getByRole("button", { name: "Finish" }).click();
  await expect(page.getByText("Status: on")).toBeVisible();

  // Signing in now asks for a code, and the code completes the sign-in.
  await page.getByRole("button", { name: "Sign Out" }).click();
  // The sign-out has landed before the next page is asked for (else that page still sees the session).
  await expect(page).toHaveURL(/\/auth(\?notice=signedOut)?$/);
  await gotoHydrated(page, "/auth?redirectTo=%2Fadmin%2Fsms");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/auth\/two-factor/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Two-Factor Sign-In");
  await page.getByLabel("Code").fill(totpCode(secret));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/admin\/sms/);
});

test("an admin sends the welcome text as a test to a phone", async ({ page, request }) => {
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const phone = randomMobile();
  await page.locator("aside").getByLabel("Phone").fill(phone);
  await page.getByRole("button", { name: "Send test" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Test Sent" }).first()).toBeVisible();
  const e164 = `+1${phone.replace(/\D/g, "")}`;
  const stored = await page.getByLabel("Welcome message").inputValue();
  await expect
    .poll(async () => ((await (await request.get(`${E2E_TWILIO.url}/__messages`)).json()) as { to: string; body: string }[]).filter((m) => m.to === e164).map((m) => m.body))
    .toEqual([stored]);
});

test("the staff home's recent changes say who did what to which article, linked", async ({ page }) => {
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/articles/new");
  const title = `Recent changes test ${Date.now()}`;
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByLabel(/^Slug/).fill(`recent-changes-${Date.now()}`);
  await page.getByRole("button", { name: "Save draft" }).click();
  // (Autosave may have made the draft already: then the button saved it.)
  await expect(page).toHaveURL(/\/admin\/articles\/[0-9a-f-]{36}\?done=(created|saved)/);
  const articlePath = new URL(page.url()).pathname;

  await page.goto("/admin");
  const change = page.getByTestId("audit").locator("li").filter({ hasText: `${E2E_ADMIN.email} started the article “${title}” as a draft` });
  await expect(change).toHaveCount(1);
  await change.getByRole("link", { name: title }).click();
  await expect(page).toHaveURL(new RegExp(`${articlePath}$`));
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue(title);
});
