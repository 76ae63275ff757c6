import type { APIRequestContext, Page } from "@playwright/test";
import { E2E_ADMIN, E2E_MAIL_URL, E2E_TWILIO } from "../support/e2e-env";
import { expect, gotoHydrated, randomMobile, test } from "../support/fixtures";
import type { CapturedMail } from "../support/smtp-capture";
import type { SentMessage } from "../support/twilio-stand-in";

// These tests share the one welcome message: run them one after another.
test.describe.configure({ mode: "default" });

const toast = (page: Page) => page.locator("[data-sonner-toast]");
const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;

async function mailsTo(request: APIRequestContext, email: string) {
  return (await (await request.get(`${E2E_MAIL_URL}?to=${encodeURIComponent(email)}`)).json()) as CapturedMail[];
}

async function signIn(page: Page, email: string, password: string, path = "/auth") {
  await gotoHydrated(page, path);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

async function signUpAndVerify(page: Page, request: APIRequestContext, email: string, password: string) {
  await gotoHydrated(page, "/auth?tab=signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(toast(page).filter({ hasText: "Account Created!" }).first()).toBeVisible();
  await expect(toast(page).filter({ hasText: "Please check your email to verify your account." }).first()).toBeVisible();
  await expect.poll(async () => (await mailsTo(request, email)).length, { timeout: 15_000 }).toBe(1);
  const [mail] = await mailsTo(request, email);
  const link = mail!.links.find((url) => url.includes("/api/auth/verify-email"));
  expect(link, mail!.text).toBeTruthy();
  await page.goto(link!);
  await expect(page).toHaveURL(/\/(\?.*)?$/);
}

const ADMIN_PAGES = ["/admin/sms", "/admin/subscribers", "/admin/messages", "/admin/inbox", "/admin/dnc", "/admin/security", "/admin/alerts", "/admin/alerts/new"];

test("sign-up, e-mail verification, a reader is refused the admin area, sign-out", async ({ page, request }) => {
  const email = uniqueEmail("reader");
  await signUpAndVerify(page, request, email, "Sturdy-Oak-Tree-47");
  for (const path of ADMIN_PAGES) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(403);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Access denied");
    await expect(page).toHaveTitle("Access denied");
  }
  // An admin action sent directly by a reader changes nothing.
  const post = await page.request.post("/admin/sms", { form: { intent: "save", version: "1", message: "Hijacked" }, headers: { Origin: new URL(page.url()).origin } });
  expect(post.status()).toBe(403);
  const alert = await page.request.post("/admin/alerts/new", { form: { intent: "save", name: "x", body: "Hijacked" }, headers: { Origin: new URL(page.url()).origin } });
  expect(alert.status()).toBe(403);
  expect((await page.request.get("/admin/alerts/reach")).status()).toBe(403);
  await gotoHydrated(page, "/admin/dnc");
  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/auth/);
  await expect(toast(page).filter({ hasText: "Signed Out" }).first()).toBeVisible();
  await expect(toast(page).filter({ hasText: "You have been successfully signed out." }).first()).toBeVisible();
});

test("an unverified account cannot sign in; unknown e-mail and wrong password read the same", async ({ page, request }) => {
  const email = uniqueEmail("unverified");
  await gotoHydrated(page, "/auth?tab=signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("Sturdy-Oak-Tree-47");
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(toast(page).filter({ hasText: "Account Created!" }).first()).toBeVisible();
  await signIn(page, email, "Sturdy-Oak-Tree-47");
  await expect(toast(page).filter({ hasText: "Sign In Failed" }).first()).toBeVisible();
  await expect(toast(page).filter({ hasText: "verify your email" }).first()).toBeVisible();

  const unknown = await request.post("/api/auth/sign-in/email", { data: { email: uniqueEmail("nobody"), password: "Whatever-123" } });
  const wrong = await request.post("/api/auth/sign-in/email", { data: { email: E2E_ADMIN.email, password: "Not-The-Password-1" } });
  expect(unknown.status()).toBe(401);
  expect(wrong.status()).toBe(401);
  expect(await unknown.json()).toEqual(await wrong.json());
});

test("the sign-in card speaks to staff on the sign-in tab and to readers on the sign-up tab", async ({ page }) => {
  await gotoHydrated(page, "/auth");
  // The original product's sentence, word for word, where staff sign in.
  await expect(page.getByTestId("auth-lead")).toHaveText("Sign in to access the admin panel");
  await page.getByRole("link", { name: "Sign Up" }).click();
  await expect(page).toHaveURL(/tab=signup/);
  await expect(page.getByTestId("auth-lead")).toHaveText(
    "Create a free reader account to see and stop your newsletter and SMS alert subscriptions in one place, and to download or delete your data at any time.",
  );
  await expect(page.getByText("admin panel")).toHaveCount(0);
  // The same page rendered for a direct visit (no JavaScript needed).
  await page.goto("/auth?tab=signup");
  await expect(page.getByTestId("auth-lead")).toHaveText(/^Create a free reader account/);
});

test("weak and short passwords are refused with a clear message", async ({ page }) => {
  await gotoHydrated(page, "/auth?tab=signup");
  await page.getByLabel("Email").fill(uniqueEmail("weak"));
  await page.getByLabel("Password").fill("password");
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(toast(page).filter({ hasText: "Sign Up Failed" }).first()).toBeVisible();
  await expect(toast(page).filter({ hasText: "too common" }).first()).toBeVisible();
});

test("an admin edits the welcome text and the next opt-in's text carries it; sign-out closes the admin area", async ({ page, request }) => {
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password, "/auth?redirectTo=%2Fadmin%2Fsms");
  await expect(page).toHaveURL(/\/admin\/sms/);
  await expect(toast(page).filter({ hasText: "Welcome back!" }).first()).toBeVisible();
  await expect(toast(page).filter({ hasText: "You have successfully signed in." }).first()).toBeVisible();
  await expect(page.getByText(`Signed in as ${E2E_ADMIN.email}`)).toBeVisible();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });

  const box = page.getByLabel("Welcome message");
  const newText = `Patriot Investor: welcome, patriot! Alerts up to 3/day. Msg&data rates may apply. Reply HELP for help, STOP to cancel. ${Date.now() % 1000}`;
  await box.fill(`   ${newText}   `);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(toast(page).filter({ hasText: "Welcome message updated successfully!" })).toContainText("Success");
  await expect(box).toHaveValue(newText);

  const phone = randomMobile();
  await request.post("/api/phone-optin", { data: { firstName: "John", lastName: "Hancock", phone, clickId: null, smsConsent: true, termsConsent: true } });
  const e164 = `+1${phone.replace(/\D/g, "")}`;
  await expect
    .poll(async () => ((await (await request.get(`${E2E_TWILIO.url}/__messages`)).json()) as SentMessage[]).filter((m) => m.to === e164).map((m) => m.body))
    .toEqual([newText]);

  // Reset brings back the stored text; Save is disabled for an empty text.
  await box.fill("Something I did not mean to keep");
  await page.getByRole("button", { name: "Reset" }).click();
  await expect(box).toHaveValue(newText);
  await box.fill("   ");
  await expect(page.getByRole("button", { name: "Save" })).toBeDisabled();

  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(toast(page).filter({ hasText: "Signed Out" }).first()).toBeVisible();
  await page.goto("/admin/sms");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fadmin%2Fsms/);
});

test("the segment counter shows characters, segments and encoding as the admin types", async ({ page }) => {
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password, "/auth?redirectTo=%2Fadmin%2Fsms");
  await expect(page).toHaveURL(/\/admin\/sms/);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const box = page.getByLabel("Welcome message");
  const expectCount = async (chars: string, segments: string, encoding: string) => {
    await expect(page.getByTestId("char-count")).toHaveText(chars);
    await expect(page.getByTestId("segment-count")).toHaveText(segments);
    await expect(page.getByTestId("encoding")).toHaveText(encoding);
  };
  await box.fill("a".repeat(160));
  await expectCount("160", "1", "GSM-7");
  await box.fill("a".repeat(161));
  await expectCount("161", "2", "GSM-7");
  await expect(page.getByTestId("sms-warnings")).toContainText("2 segments");
  await box.fill("€".repeat(81));
  await expectCount("81", "2", "GSM-7");
  await box.fill("Patriot Investor 🇺🇸 Reply HELP or STOP");
  await expect(page.getByTestId("encoding")).toHaveText("UCS-2");
  await box.fill("Welcome aboard!");
  await expect(page.getByTestId("sms-warnings")).toContainText("Reply STOP");
  await expect(page.getByTestId("sms-warnings")).toContainText("Patriot Investor");
});

test("the admin's save notices: Message Required, a stale version refused, Success", async ({ page }) => {
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password, "/auth?redirectTo=%2Fadmin%2Fsms");
  await expect(page).toHaveURL(/\/admin\/sms/);
  const origin = new URL(page.url()).origin;
  const version = await page.locator('input[name="version"]').inputValue();
  const post = (fields: Record<string, string>) => page.request.post("/admin/sms", { form: fields, headers: { Origin: origin } });

  const empty = await post({ intent: "save", version, message: "   " });
  expect(empty.status()).toBe(400);
  expect(await empty.text()).toContain("Please enter a welcome message");

  const text = "Patriot Investor: welcome! Up to 3 msgs/day. Msg&data rates may apply. Reply HELP for help, STOP to cancel.";
  const first = await post({ intent: "save", version, message: text });
  expect(first.status()).toBe(200);
  expect(await first.text()).toContain("Welcome message updated successfully!");
  const second = await post({ intent: "save", version, message: `${text} (second)` });
  expect(second.status()).toBe(409);
  expect(await second.text()).toContain("Someone else changed the welcome message");

  // A cross-site post with the admin's cookie is refused and changes nothing.
  const forged = await page.request.post("/admin/sms", { form: { intent: "save", version: String(Number(version) + 1), message: "Forged" }, headers: { Origin: "https://evil.example" } });
  expect(forged.status()).toBeGreaterThanOrEqual(400);
  await page.goto("/admin/sms");
  await expect(page.getByLabel("Welcome message")).toHaveValue(text);
});

test("brute force: the 4th quick sign-in from one address is 429, and a locked account refuses even the right password", async ({ request }) => {
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) {
    statuses.push((await request.post("/api/auth/sign-in/email", { data: { email: E2E_ADMIN.email, password: `wrong-${i}-password` } })).status());
  }
  expect(statuses).toEqual([401, 401, 401, 429]);
});

test("ten failures lock the account across addresses until the window passes", async ({ playwright, page, request }) => {
  const email = uniqueEmail("locked");
  await signUpAndVerify(page, request, email, "Sturdy-Oak-Tree-47");
  for (let i = 0; i < 10; i++) {
    const context = await playwright.request.newContext({ baseURL: new URL(page.url()).origin, extraHTTPHeaders: { "X-Forwarded-For": `198.19.${i}.1` } });
    expect((await context.post("/api/auth/sign-in/email", { data: { email, password: `wrong-password-${i}` } })).status()).toBe(401);
    await context.dispose();
  }
  const context = await playwright.request.newContext({ baseURL: new URL(page.url()).origin, extraHTTPHeaders: { "X-Forwarded-For": "198.19.99.1" } });
  const correct = await context.post("/api/auth/sign-in/email", { data: { email, password: "Sturdy-Oak-Tree-47" } });
  expect(correct.status()).toBe(429);
  await context.dispose();
});

test("without a session an admin action changes nothing and sends the visitor to sign in", async ({ request }) => {
  const response = await request.post("/admin/sms", { form: { intent: "save", version: "1", message: "Anonymous change" }, maxRedirects: 0 });
  expect(response.status()).toBe(302);
  expect(response.headers()["location"]).toMatch(/^\/auth\?redirectTo=/);
  const csv = await request.get("/admin/subscribers.csv", { maxRedirects: 0 });
  expect(csv.status()).toBe(302);
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("sign-in works, shows its notice and a signed-in visitor of /auth goes back where they came from", async ({ page }) => {
    await page.goto("/auth?redirectTo=%2Fadmin%2Fmessages");
    await page.getByLabel("Email").fill(E2E_ADMIN.email);
    await page.getByLabel("Password").fill("definitely-wrong");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("alert")).toContainText("Sign In Failed");
    await expect(page.getByRole("alert")).toContainText("Invalid email or password.");
    await page.getByLabel("Password").fill(E2E_ADMIN.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/admin\/messages\?notice=signedIn/);
    await expect(page.getByRole("status").first()).toContainText("Welcome back!");
    await page.goto("/auth?redirectTo=%2Fadmin%2Fdnc");
    await expect(page).toHaveURL(/\/admin\/dnc$/);
    // A foreign return address is dropped: staff go to their home instead.
    await page.goto("/auth?redirectTo=https%3A%2F%2Fevil.example");
    await expect(page).toHaveURL(/:\d+\/admin$/);
  });
});
