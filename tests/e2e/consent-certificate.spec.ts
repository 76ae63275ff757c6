import { createHash, createHmac, randomBytes } from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import { E2E_BASE_URL, E2E_MAIL_URL } from "../support/e2e-env";
import { expect, gotoHydrated, randomIp, randomMobile, test, signInAsAdmin } from "../support/fixtures";
import type { CapturedMail } from "../support/smtp-capture";
import { deliveryReport, inboundText, textsTo } from "../support/twilio-webhooks";
import { expectAxeClean } from "../support/axe";

test("a certificate for an opt-in made in this test: sealed, signed, printable, downloadable and shared, with and without JavaScript", async ({ page, browser, request }) => {
  // The chain head is signed once a minute (CONSENT_HEAD_SIGN_SECONDS): the test waits for one.
  test.setTimeout(180_000);
  const clickId = `click-cert-${Date.now()}`;
  const phone = randomMobile();
  const optIn = await request.post("/api/phone-optin", { data: { firstName: "Deborah", lastName: "Sampson", phone, clickId, smsConsent: true, termsConsent: true } });
  expect(optIn.ok()).toBe(true);

  await signInAsAdmin(page, "/admin/subscribers");
  await page.goto(`/admin/subscribers?q=${clickId}`);
  const row = page.locator("tbody tr").filter({ hasText: "Deborah Sampson" });
  await expect(row).toHaveCount(1);
  await row.getByRole("link", { name: "Certificate" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Consent Certificate" })).toBeVisible();
  const certificateUrl = page.url();
  await expect(page.getByRole("heading", { name: /SMS opt-in/ })).toBeVisible();
  await expect(page.locator(".consent-certificate")).toContainText("By checking this box");
  await expect(page.locator(".consent-certificate")).toContainText(clickId);
  // Sealed into the chain by the servers' background step within seconds, then covered by a signed head.
  await expect(async () => {
    await page.reload();
    await expect(page.locator(".consent-certificate")).toContainText("covered by the signed head", { timeout: 1000 });
  }).toPass({ timeout: 90_000 });
  await expectAxeClean(page);

  // The chain's page checks every sealed event and the signed head.
  await gotoHydrated(page, "/admin/consent");
  await page.getByRole("button", { name: "Check the Chain Now" }).click();
  await expect(page.getByText("The Chain Matches")).toBeVisible();
  await expectAxeClean(page);
  await page.goto(certificateUrl);

  // Printed: the admin navigation is not on paper.
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("navigation", { name: "Admin" })).toBeHidden();
  await page.emulateMedia({ media: "screen" });

  // The signed download.
  const json = await page.request.get(`${certificateUrl}.json`);
  expect(json.status()).toBe(200);
  const signed = (await json.json()) as { certificate: { events: { action: string; clickId: string }[] }; signature: { algorithm: string } };
  expect(signed.signature.algorithm).toBe("Ed25519");
  expect(signed.certificate.events[0]).toMatchObject({ action: "opt_in", clickId });

  // The same page without JavaScript.
  const noJs = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState(), ignoreHTTPSErrors: true });
  const plain = await noJs.newPage();
  const response = await plain.goto(certificateUrl);
  expect(response?.status()).toBe(200);
  await expect(plain.locator(".consent-certificate")).toContainText("By checking this box");
  // (axe runs as a script in the page, so it cannot run here; the markup is the server's, checked above.)

  // A share link, made without JavaScript, opens the certificate without an account.
  await plain.getByLabel("Valid for days").fill("3");
  await plain.getByRole("button", { name: "Create Share Link" }).click();
  const shareUrl = await plain.getByRole("status").getByRole("link").getAttribute("href");
  expect(shareUrl).toMatch(/\/consent-certificates\//);
  await noJs.close();

  const stranger = await browser.newContext({ ignoreHTTPSErrors: true });
  const shared = await stranger.newPage();
  expect((await shared.goto(shareUrl!))?.status()).toBe(200);
  await expect(shared.locator(".consent-certificate")).toContainText(clickId);
  await expectAxeClean(shared);
  const tampered = shareUrl!.replace(/\.(\d+)\./, (_, s: string) => `.${Number(s) + 1}.`);
  expect((await shared.goto(tampered))?.status()).toBe(404);
  await stranger.close();
});

test("an opt-in on the page records, where JavaScript ran, how long each field was typed and when each box was ticked; without JavaScript the certificate says so", async ({ page, browser }) => {
  const withJs = `click-timing-${Date.now()}`;
  await gotoHydrated(page, `/opt-in?sub2=${withJs}`);
  await page.getByLabel("First Name").pressSequentially("Mercy", { delay: 120 });
  await page.getByLabel("Last Name").pressSequentially("Warren", { delay: 120 });
  await page.getByLabel("Mobile Phone").pressSequentially(randomMobile(), { delay: 80 });
  await page.getByLabel(/recurring automated marketing text messages/).check();
  await page.getByLabel(/I agree to the Terms of Service/).check();
  await page.getByRole("button", { name: "JOIN FREE ALERTS" }).click();
  await expect(page.locator("[data-sonner-toast]")).toContainText("Welcome Patriot!");

  const noJs = await browser.newContext({ javaScriptEnabled: false, ignoreHTTPSErrors: true, extraHTTPHeaders: { "X-Forwarded-For": randomIp() } });
  const plain = await noJs.newPage();
  const withoutJs = `click-nojs-${Date.now()}`;
  // The server's clock and this test's are the same machine's (the image loads with the page).
  const beforeServed = Date.now();
  await plain.goto(`/opt-in?sub2=${withoutJs}`);
  const afterServed = Date.now();
  await plain.getByLabel("First Name").fill("Phillis");
  await plain.getByLabel("Last Name").fill("Wheatley");
  await plain.getByLabel("Mobile Phone").fill(randomMobile());
  await plain.getByLabel(/recurring automated marketing text messages/).check();
  await plain.getByLabel(/I agree to the Terms of Service/).check();
  await plain.getByRole("button", { name: "JOIN FREE ALERTS" }).click();
  await expect(plain.getByRole("status")).toContainText("Welcome Patriot!");
  await noJs.close();

  const admin = await browser.newContext({ ignoreHTTPSErrors: true, extraHTTPHeaders: { "X-Forwarded-For": randomIp() } });
  const staff = await admin.newPage();
  await signInAsAdmin(staff, "/admin/subscribers");
  const certificateOf = async (clickId: string, name: string) => {
    await staff.goto(`/admin/subscribers?q=${clickId}`);
    await staff.locator("tbody tr").filter({ hasText: name }).getByRole("link", { name: "Certificate" }).click();
    await expect(staff.getByRole("heading", { level: 1, name: "Consent Certificate" })).toBeVisible();
    return staff.locator(".consent-certificate");
  };
  const timed = await certificateOf(withJs, "Mercy Warren");
  // Typed one key every 120 ms: the five letters of "Mercy" took about half a second.
  const text = (await timed.textContent()) ?? "";
  const typing = /typing: first name (\d+\.\d) s, last name (\d+\.\d) s, phone (\d+\.\d) s/.exec(text);
  expect(typing, text).not.toBeNull();
  expect(Number(typing![1])).toBeGreaterThanOrEqual(0.4);
  expect(Number(typing![3])).toBeGreaterThan(0.5);
  const ticked = /SMS box ticked at (\d+\.\d) s, terms box ticked at (\d+\.\d) s; sent at (\d+\.\d) s/.exec(text);
  expect(ticked, text).not.toBeNull();
  expect(Number(ticked![1])).toBeLessThanOrEqual(Number(ticked![2]));
  expect(Number(ticked![2])).toBeLessThanOrEqual(Number(ticked![3]));
  await expectAxeClean(staff);

  // Where JavaScript ran, the server's times are there too.
  expect(text).toMatch(/Form page shown \(server\)\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC; the form came back \d+\.\d s later/);

  const untimed = await certificateOf(withoutJs, "Phillis Wheatley");
  await expect(untimed).toContainText("No record from the page: its JavaScript did not run");
  // Without JavaScript: the server's time of showing the page, from the cookie its form's image set.
  const served = /Form page shown \(server\)(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) UTC; the form came back (\d+\.\d) s later/.exec((await untimed.textContent()) ?? "");
  expect(served).not.toBeNull();
  const servedAt = Date.parse(`${served![1]!.replace(" ", "T")}Z`);
  expect(servedAt).toBeGreaterThanOrEqual(beforeServed - 1_000);
  expect(servedAt).toBeLessThanOrEqual(afterServed + 1_000);
  expect(Number(served![2])).toBeGreaterThan(0);
  await admin.close();
});

test("the certificate rebuilds the form page exactly as it was served, with and without JavaScript", async ({ browser }) => {
  const served = new Map<string, Buffer>();
  for (const javaScriptEnabled of [true, false]) {
    const context = await browser.newContext({ javaScriptEnabled, ignoreHTTPSErrors: true, extraHTTPHeaders: { "X-Forwarded-For": randomIp() } });
    const visitor = await context.newPage();
    const clickId = `click-served-${javaScriptEnabled ? "js" : "nojs"}-${Date.now()}`;
    // The landing URL's values are written into the kept document: the rebuilt page must have them too.
    const url = `/opt-in?f_name=Hannah&l_name=Adams%20%26%20Sons&sub2=${clickId}`;
    const response = javaScriptEnabled ? await gotoHydrated(visitor, url) : await visitor.goto(url);
    served.set(clickId, await response!.body());
    await visitor.getByLabel("Mobile Phone").fill(randomMobile());
    await visitor.getByLabel(/recurring automated marketing text messages/).check();
    await visitor.getByLabel(/I agree to the Terms of Service/).check();
    await visitor.getByRole("button", { name: "JOIN FREE ALERTS" }).click();
    await expect(javaScriptEnabled ? visitor.locator("[data-sonner-toast]") : visitor.getByRole("status")).toContainText("Welcome Patriot!");
    await context.close();
  }

  const admin = await browser.newContext({ ignoreHTTPSErrors: true, extraHTTPHeaders: { "X-Forwarded-For": randomIp() } });
  const staff = await admin.newPage();
  await signInAsAdmin(staff, "/admin/subscribers");
  for (const [clickId, bytes] of served) {
    await staff.goto(`/admin/subscribers?q=${clickId}`);
    await staff.locator("tbody tr").filter({ hasText: "Hannah Adams & Sons" }).getByRole("link", { name: "Certificate" }).click();
    const certificate = staff.locator(".consent-certificate");
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    await expect(certificate).toContainText(`page SHA-256 ${sha256}`);
    const link = certificate.getByRole("link", { name: "View the form as served" });
    const href = await link.getAttribute("href");
    const rebuilt = await staff.request.get(href!);
    expect(rebuilt.status()).toBe(200);
    expect(rebuilt.headers()["x-content-sha256"]).toBe(sha256);
    expect(rebuilt.headers()["content-security-policy"]).toContain("sandbox");
    // Found exactly as served: the same bytes, values included.
    expect(Buffer.compare(await rebuilt.body(), bytes), clickId).toBe(0);
    // Behind a share link too, for someone without an account; a wrong token answers nothing.
    await staff.getByLabel("Valid for days").fill("2");
    await staff.getByRole("button", { name: "Create Share Link" }).click();
    const shareUrl = await staff.getByRole("status").getByRole("link").getAttribute("href");
    const eventId = /\/form\/(\d+)$/.exec(href!)![1];
    const stranger = await browser.newContext({ ignoreHTTPSErrors: true });
    const shared = await stranger.request.get(`${shareUrl}/form/${eventId}`);
    expect(shared.status()).toBe(200);
    expect(Buffer.compare(await shared.body(), bytes)).toBe(0);
    const tampered = shareUrl!.replace(/\.(\d+)\./, (_, s: string) => `.${Number(s) + 1}.`);
    expect((await stranger.request.get(`${tampered}/form/${eventId}`)).status()).toBe(404);
    await stranger.close();
    await staff.goto(href!);
    await expect(staff.getByLabel("First Name")).toHaveValue("Hannah");
    await expect(staff.getByLabel("Last Name")).toHaveValue("Adams & Sons");
    await expect(staff.getByText(/recurring automated marketing text messages/)).toBeVisible();
  }
  await admin.close();
});

test("a newsletter sign-up from the home page keeps the page as it was sent, when it was sent, and the typing of each field; so does its confirmation page", async ({ page, browser, request }) => {
  const email = `cert-reader-${Date.now()}@example.com`;
  const response = await gotoHydrated(page, "/");
  const sent = await response!.body();
  const form = page.locator("#newsletter form");
  await form.getByLabel("First Name").pressSequentially("Betsy", { delay: 100 });
  await form.getByLabel("Last Name").pressSequentially("Ross", { delay: 100 });
  await form.getByLabel("Email").pressSequentially(email, { delay: 40 });
  await form.getByLabel("Phone", { exact: true }).pressSequentially(randomMobile(), { delay: 60 });
  await form.getByLabel(/recurring automated marketing text messages/).check();
  await form.getByLabel(/I agree to the/).check();
  await form.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Successfully Subscribed!" })).toHaveCount(1);

  // The confirmation link from the e-mail: a page rendered for this one request, with its button.
  let confirmLink: string | undefined;
  await expect
    .poll(async () => {
      const mails = (await (await request.get(`${E2E_MAIL_URL}?to=${encodeURIComponent(email)}`)).json()) as CapturedMail[];
      confirmLink = mails.flatMap((mail) => mail.links).find((url) => url.includes("/newsletter/confirm?token="));
      return Boolean(confirmLink);
    })
    .toBe(true);
  const confirmPage = await page.goto(confirmLink!);
  const confirmBytes = await confirmPage!.body();
  await page.getByRole("button", { name: "Confirm my subscription" }).click();
  await expect(page.getByText("Subscription Confirmed")).toBeVisible();

  const admin = await browser.newContext({ ignoreHTTPSErrors: true, extraHTTPHeaders: { "X-Forwarded-For": randomIp() } });
  const staff = await admin.newPage();
  await signInAsAdmin(staff, "/admin/subscribers");
  await staff.goto(`/admin/subscribers?q=${encodeURIComponent(email)}`);
  await staff.locator("tbody tr").filter({ hasText: email }).getByRole("link", { name: "Certificate" }).click();
  const certificate = staff.locator(".consent-certificate");
  await expect(certificate.getByRole("heading", { name: /Newsletter sign-up/ })).toBeVisible();
  const text = (await certificate.textContent()) ?? "";
  // The e-mail typed one key every 40 ms: well over half a second of typing.
  const typing = /typing: first name (\d+\.\d) s, last name (\d+\.\d) s, e-mail (\d+\.\d) s, phone (\d+\.\d) s/.exec(text);
  expect(typing, text).not.toBeNull();
  expect(Number(typing![3])).toBeGreaterThan(0.5);
  expect(text).toMatch(/Form page shown \(server\)\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC; the form came back \d+\.\d s later/);
  // The home page as the browser received it, byte for byte.
  const sha256 = createHash("sha256").update(sent).digest("hex");
  await expect(certificate).toContainText(`page SHA-256 ${sha256}`);
  const href = await certificate.getByRole("link", { name: "View the form as served" }).first().getAttribute("href");
  const rebuilt = await staff.request.get(href!);
  expect(rebuilt.status()).toBe(200);
  expect(Buffer.compare(await rebuilt.body(), sent)).toBe(0);

  // The confirmation: the page with the button, exactly as it was sent.
  const confirmed = staff.locator(".certificate-event").filter({ has: staff.getByRole("heading", { name: /Newsletter confirmed/ }) });
  await expect(confirmed).toContainText(`page SHA-256 ${createHash("sha256").update(confirmBytes).digest("hex")}`);
  await expect(confirmed).toContainText(/Form page shown \(server\)\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC; the form came back/);
  const confirmHref = await confirmed.getByRole("link", { name: "View the form as served" }).getAttribute("href");
  const confirmRebuilt = await staff.request.get(confirmHref!);
  expect(Buffer.compare(await confirmRebuilt.body(), confirmBytes)).toBe(0);
  await expectAxeClean(staff);
  await admin.close();
});

/** Opens the certificate of the subscriber `query` finds (the row holding `rowText`) as staff. */
async function openCertificate(staff: Page, query: string, rowText: string) {
  await staff.goto(`/admin/subscribers?q=${encodeURIComponent(query)}`);
  await staff.locator("tbody tr").filter({ hasText: rowText }).getByRole("link", { name: "Certificate" }).click();
  await expect(staff.getByRole("heading", { level: 1, name: "Consent Certificate" })).toBeVisible();
  return staff.locator(".consent-certificate");
}

/** The certificate names the page as the browser received it, and its link answers those very bytes. */
async function expectPageAsServed(staff: Page, event: Locator, sent: Buffer) {
  const sha256 = createHash("sha256").update(sent).digest("hex");
  await expect(event).toContainText(`page SHA-256 ${sha256}`);
  const href = await event.getByRole("link", { name: "View the form as served" }).first().getAttribute("href");
  const rebuilt = await staff.request.get(href!);
  expect(rebuilt.status()).toBe(200);
  expect(rebuilt.headers()["x-content-sha256"]).toBe(sha256);
  expect(Buffer.compare(await rebuilt.body(), sent)).toBe(0);
  return rebuilt.body();
}

test("a newsletter sign-up on /home (an ad's landing) and one from an article's end, without JavaScript, each keep the page as it was sent", async ({ page, browser }) => {
  const fill = async (visitor: Page, email: string) => {
    const form = visitor.locator("#newsletter form");
    await form.getByLabel("First Name").fill("Mercy");
    await form.getByLabel("Last Name").fill("Otis");
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Phone", { exact: true }).fill(randomMobile());
    await form.getByLabel(/I agree to the/).check();
    await form.getByRole("button", { name: "Subscribe" }).click();
  };

  // On /home, where an ad led with its tracking parameters.
  const onHome = `home-landing-${Date.now()}@example.com`;
  const landing = `/home?utm_source=facebook&utm_medium=paid_social&utm_campaign=newsletter&fbclid=IwAR${Date.now()}`;
  const homeSent = await (await gotoHydrated(page, landing))!.body();
  await fill(page, onHome);
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Successfully Subscribed!" })).toHaveCount(1);

  // From an article's end, without JavaScript: its button leads to the form on /home.
  const context = await browser.newContext({ javaScriptEnabled: false, ignoreHTTPSErrors: true, extraHTTPHeaders: { "X-Forwarded-For": randomIp() } });
  const reader = await context.newPage();
  await reader.goto("/articles/bonds-guide");
  const [arrived] = await Promise.all([
    reader.waitForResponse((response) => new URL(response.url()).pathname === "/home" && response.request().isNavigationRequest()),
    reader.getByTestId("article-subscribe").getByRole("link", { name: "Get the newsletter" }).click(),
  ]);
  await expect(reader).toHaveURL(/\/home#newsletter$/);
  const articleSent = await arrived.body();
  const fromArticle = `article-end-${Date.now()}@example.com`;
  await fill(reader, fromArticle);
  await expect(reader.getByRole("status").filter({ hasText: "Successfully Subscribed!" })).toHaveCount(1);
  await context.close();

  const admin = await browser.newContext({ ignoreHTTPSErrors: true, extraHTTPHeaders: { "X-Forwarded-For": randomIp() } });
  const staff = await admin.newPage();
  await signInAsAdmin(staff, "/admin/subscribers");
  const homeCertificate = await openCertificate(staff, onHome, onHome);
  await expect(homeCertificate).toContainText(`${E2E_BASE_URL}${landing}`);
  await expectPageAsServed(staff, homeCertificate, homeSent);
  const articleCertificate = await openCertificate(staff, fromArticle, fromArticle);
  await expectPageAsServed(staff, articleCertificate, articleSent);
  await expectAxeClean(staff);
  await admin.close();
});

test("a landing address of 1,235 characters (utm_*, fbclid, then sub2) is on the certificate whole, with the page rebuilt as received; so is one past the 4,096 characters a browser sends as Referer", async ({ browser }) => {
  const signUp = async (javaScriptEnabled: boolean, length: number) => {
    const clickId = `click-long-${length}-${Date.now()}`;
    const start = `/opt-in?utm_source=facebook&utm_medium=paid_social&utm_campaign=spring_gold&utm_content=carousel_03&utm_term=gold%20ira&f_name=Abigail&fbclid=`;
    const end = `&sub2=${clickId}`;
    const filler = "IwAR3xKq9".repeat(1_000);
    const path = `${start}${filler.slice(0, length - E2E_BASE_URL.length - start.length - end.length)}${end}`;
    const url = `${E2E_BASE_URL}${path}`;
    expect(url).toHaveLength(length);
    const context = await browser.newContext({ javaScriptEnabled, ignoreHTTPSErrors: true, extraHTTPHeaders: { "X-Forwarded-For": randomIp() } });
    const visitor = await context.newPage();
    const response = javaScriptEnabled ? await gotoHydrated(visitor, path) : await visitor.goto(path);
    const sent = await response!.body();
    expect(sent.toString("utf8")).toContain(`value="${clickId}"`);
    await visitor.getByLabel("Last Name").fill("Adams");
    await visitor.getByLabel("Mobile Phone").fill(randomMobile());
    await visitor.getByLabel(/recurring automated marketing text messages/).check();
    await visitor.getByLabel(/I agree to the Terms of Service/).check();
    await visitor.getByRole("button", { name: "JOIN FREE ALERTS" }).click();
    await expect(javaScriptEnabled ? visitor.locator("[data-sonner-toast]") : visitor.getByRole("status")).toContainText("Welcome Patriot!");
    await context.close();
    return { clickId, url, sent };
  };
  const received = [await signUp(false, 1_235), await signUp(true, 5_000)];

  const admin = await browser.newContext({ ignoreHTTPSErrors: true, extraHTTPHeaders: { "X-Forwarded-For": randomIp() } });
  const staff = await admin.newPage();
  await signInAsAdmin(staff, "/admin/subscribers");
  for (const { clickId, url, sent } of received) {
    const certificate = await openCertificate(staff, clickId, "Abigail Adams");
    const row = (label: string) => certificate.locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::dd[1]");
    await expect(row("Page")).toHaveText(url);
    // Past 4,096 characters the browser sent the origin alone: the address is the one the page wrote in.
    await expect(row("Referrer")).toHaveText(url.length > 4_096 ? `${E2E_BASE_URL}/` : url);
    await expect(certificate).not.toContainText("Page address");
    const rebuilt = await expectPageAsServed(staff, certificate, sent);
    expect(rebuilt.toString("utf8")).toContain(`value="${clickId}"`);
  }
  await admin.close();
});

test("HELP, STOP and START texted in are on the certificate, each with the text sent in answer and its delivery", async ({ page, request }) => {
  const clickId = `click-keywords-${Date.now()}`;
  const phone = randomMobile();
  const e164 = `+1${phone.replace(/\D/g, "")}`;
  const optIn = await request.post("/api/phone-optin", { data: { firstName: "Sybil", lastName: "Ludington", phone, clickId, smsConsent: true, termsConsent: true } });
  expect(optIn.ok()).toBe(true);
  await expect.poll(async () => (await textsTo(request, e164)).length).toBe(1);
  // One at a time, each answered before the next, as a person would text.
  for (const [index, word] of ["HELP", "STOP", "START"].entries()) {
    expect((await inboundText(request, e164, word)).status()).toBe(200);
    await expect.poll(async () => (await textsTo(request, e164)).length).toBe(index + 2);
  }
  const [, help, stop, start] = await textsTo(request, e164);
  expect(help!.body).toContain("Reply STOP to cancel");
  expect(stop!.body).toContain("unsubscribed");
  // The provider reports the opt-out confirmation delivered and the HELP answer undelivered.
  expect((await deliveryReport(request, stop!.sid, "delivered")).status()).toBe(204);
  expect((await deliveryReport(request, help!.sid, "undelivered", "30003")).status()).toBe(204);

  await signInAsAdmin(page, "/admin/subscribers");
  await page.goto(`/admin/subscribers?q=${clickId}`);
  await page.locator("tbody tr").filter({ hasText: "Sybil Ludington" }).getByRole("link", { name: "Certificate" }).click();
  const certificate = page.locator(".consent-certificate");
  const section = (name: RegExp) => certificate.locator(".certificate-event").filter({ has: page.getByRole("heading", { level: 2, name }) });
  await expect(section(/^SMS opt-in/)).toContainText("welcome text; sent");
  const helpEvent = section(/^HELP$/);
  await expect(helpEvent).toContainText("Text received“HELP”");
  await expect(helpEvent).toContainText("Texts sent in answer");
  await expect(helpEvent).toContainText(`“${help!.body}” — reply to HELP; sent`);
  await expect(helpEvent).toContainText(`provider id ${help!.sid}; the provider’s last report: undelivered (Twilio error 30003)`);
  const stopEvent = section(/^Opt-out$/);
  await expect(stopEvent).toContainText("Text received“STOP”");
  await expect(stopEvent).toContainText(`“${stop!.body}” — opt-out confirmation; sent`);
  await expect(stopEvent).toContainText(`provider id ${stop!.sid}; the provider’s last report: delivered`);
  const startEvent = section(/^Opted back in \(START\)/);
  await expect(startEvent).toContainText(`“${start!.body}” — reply to START; sent`);
  await expect(startEvent).toContainText(`provider id ${start!.sid}`);
  await expect(certificate.locator(".certificate-event h2")).toHaveText([/^SMS opt-in/, /^HELP$/, /^Opt-out$/, /^Opted back in \(START\)/]);
  await expectAxeClean(page);

  // The signed download says the same.
  const json = (await (await page.request.get(`${page.url()}.json`)).json()) as {
    certificate: { events: { action: string; inbound: { body: string | null }; texts: { kind: string; providerId: string | null; providerStatus: string | null }[] }[] };
  };
  expect(json.certificate.events.map((event) => [event.action, event.inbound.body, event.texts.map((text) => [text.kind, text.providerId, text.providerStatus])])).toEqual([
    ["opt_in", null, [["welcome", expect.any(String), expect.any(String)]]],
    ["help", "HELP", [["help", help!.sid, "undelivered"]]],
    ["opt_out", "STOP", [["stop_confirmation", stop!.sid, "delivered"]]],
    ["start", "START", [["start_confirmation", start!.sid, expect.any(String)]]],
  ]);
});

test("a newsletter subscriber's bounce and spam complaint reported by Mailgun are on the certificate with the provider's time and report", async ({ page, request }) => {
  const email = `cert-bounce-${Date.now()}@example.com`;
  await request.post("/home", { form: { intent: "newsletter", firstName: "Hannah", lastName: "Arnett", email, phone: randomMobile(), termsConsent: "on" } });
  const signed = (eventData: Record<string, unknown>) => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const token = randomBytes(25).toString("hex");
    const signature = createHmac("sha256", "e2e-mailgun-signing-key-0123456789").update(timestamp + token).digest("hex");
    return { signature: { timestamp, token, signature }, "event-data": { recipient: email, ...eventData } };
  };
  const at = Date.UTC(2026, 10, 21, 9, 30, 0) / 1000;
  const bounce = await request.post("/api/email/events/mailgun", {
    data: signed({ id: `bounce-${email}`, event: "failed", severity: "permanent", timestamp: at, reason: "bounce", "delivery-status": { code: 550, message: "5.1.1 No such mailbox" } }),
  });
  expect(await bounce.json()).toEqual({ applied: true, status: "bounced" });
  expect((await request.post("/api/email/events/mailgun", { data: signed({ id: `complaint-${email}`, event: "complained", timestamp: at + 90 }) })).status()).toBe(200);

  await signInAsAdmin(page, "/admin/subscribers");
  await page.goto(`/admin/subscribers?q=${encodeURIComponent(email)}`);
  await page.locator("tbody tr").filter({ hasText: email }).getByRole("link", { name: "Certificate" }).click();
  const certificate = page.locator(".consent-certificate");
  await expect(certificate.locator(".certificate-event h2")).toHaveText([/^Newsletter sign-up/, /^E-mail bounced$/, /^Spam complaint$/]);
  await expect(certificate).toContainText(
    `Provider’s reportMailgun: failed (permanent); at 2026-11-21 09:30:00.000 UTC (the provider’s time); 550 5.1.1 No such mailbox; reason: bounce; event id bounce-${email}`,
  );
  await expect(certificate).toContainText(`Provider’s reportMailgun: complained; at 2026-11-21 09:31:30.000 UTC (the provider’s time); event id complaint-${email}`);
  await expectAxeClean(page);
});
