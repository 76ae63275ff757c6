import type { APIRequestContext } from "@playwright/test";
import webhooks from "twilio/lib/webhooks/webhooks.js";
import { E2E_BASE_URL, E2E_TWILIO } from "../support/e2e-env";
import { expect, gotoHydrated, randomMobile, test } from "../support/fixtures";
import { inboundText as inbound, textsTo } from "../support/twilio-webhooks";

const toE164 = (phone: string) => `+1${phone.replace(/\D/g, "")}`;

async function optIn(request: APIRequestContext, phone: string) {
  return request.post("/api/phone-optin", {
    data: { firstName: "Paul", lastName: "Revere", phone, clickId: null, smsConsent: true, termsConsent: true },
  });
}

test("an opt-in on the page sends the welcome text through Twilio", async ({ page, request }) => {
  const phone = randomMobile();
  await gotoHydrated(page, "/opt-in");
  await page.getByLabel("First Name").fill("Paul");
  await page.getByLabel("Last Name").fill("Revere");
  await page.getByLabel("Mobile Phone").fill(phone);
  await page.getByLabel(/recurring automated marketing text messages/).check();
  await page.getByLabel(/I agree to the Terms of Service/).check();
  await page.getByRole("button", { name: "JOIN FREE ALERTS" }).click();
  await expect(page.locator("[data-sonner-toast]")).toContainText("Welcome Patriot!");
  await expect.poll(() => textsTo(request, toE164(phone))).toHaveLength(1);
  const [welcome] = await textsTo(request, toE164(phone));
  expect(welcome!.body).toContain("Patriot Investor");
  expect(welcome!.body).toContain("STOP");
  expect(welcome!.from).toBe(E2E_TWILIO.from);
  expect(welcome!.statusCallback).toBe(`${E2E_BASE_URL}/api/sms/status`);
});

test("the JSON endpoint keeps the original contract", async ({ request }) => {
  const phone = randomMobile();
  const ok = await optIn(request, phone);
  expect(ok.status()).toBe(200);
  expect(await ok.json()).toEqual({ success: true, dnc: false, error: null });
  const again = await optIn(request, phone);
  expect(await again.json()).toEqual({ success: true, dnc: false, error: null });
  await expect.poll(() => textsTo(request, toE164(phone))).toHaveLength(1);

  const bad = await request.post("/api/phone-optin", { data: { firstName: "Paul", lastName: "Revere", phone: "(212) 555-0123", clickId: null, smsConsent: true, termsConsent: true } });
  expect(bad.status()).toBe(400);
  expect(await bad.json()).toMatchObject({ success: false, dnc: false, error: expect.stringContaining("555") });
});

test("STOP opts out at once with one confirmation; the number is then refused as Do-Not-Call", async ({ request }) => {
  const phone = randomMobile();
  const e164 = toE164(phone);
  await optIn(request, phone);
  await expect.poll(() => textsTo(request, e164)).toHaveLength(1);
  const stop = await inbound(request, e164, "Stop texting me please");
  expect(stop.status()).toBe(200);
  expect(stop.headers()["content-type"]).toContain("text/xml");
  await expect.poll(async () => (await textsTo(request, e164)).map((m) => m.body)).toEqual([
    expect.any(String),
    expect.stringContaining("unsubscribed"),
  ]);
  const refused = await optIn(request, phone);
  expect(await refused.json()).toEqual({
    success: false,
    dnc: true,
    error: "This phone number is on the Do Not Call list and cannot receive marketing messages.",
  });
  // START brings the number back, with a new welcome.
  await inbound(request, e164, "START");
  await expect.poll(async () => (await textsTo(request, e164)).length).toBe(3);
  expect(await (await optIn(request, phone)).json()).toEqual({ success: true, dnc: false, error: null });
});

test("HELP answers with brand, contact, frequency, rates and STOP", async ({ request }) => {
  const e164 = toE164(randomMobile());
  await inbound(request, e164, "HELP");
  await expect.poll(() => textsTo(request, e164)).toHaveLength(1);
  const [reply] = await textsTo(request, e164);
  for (const part of ["Patriot Investor", "info@patriotinvestor.example", "1-800-555-0199", "Msg&data rates may apply", "STOP"]) {
    expect(reply!.body).toContain(part);
  }
});

test("a webhook without a valid Twilio signature is refused and changes nothing", async ({ request }) => {
  const phone = randomMobile();
  const e164 = toE164(phone);
  await optIn(request, phone);
  const forged = await inbound(request, e164, "STOP", false);
  expect(forged.status()).toBe(403);
  const unsigned = await request.post("/api/sms/inbound", { form: { MessageSid: "SM1", From: e164, Body: "STOP" } });
  expect(unsigned.status()).toBe(403);
  // Still subscribed: a repeat opt-in is the same success, not a Do-Not-Call refusal.
  expect(await (await optIn(request, phone)).json()).toEqual({ success: true, dnc: false, error: null });
  expect((await textsTo(request, e164)).some((m) => m.body.includes("unsubscribed"))).toBe(false);
});

test("delivery status callbacks are accepted only when signed", async ({ request }) => {
  const params = { MessageSid: "SM00000000000000000000000000000001", MessageStatus: "delivered", AccountSid: E2E_TWILIO.accountSid };
  const signature = webhooks.getExpectedTwilioSignature(E2E_TWILIO.authToken, `${E2E_BASE_URL}/api/sms/status`, params);
  expect((await request.post("/api/sms/status", { form: params, headers: { "X-Twilio-Signature": signature } })).status()).toBe(204);
  expect((await request.post("/api/sms/status", { form: params, headers: { "X-Twilio-Signature": "bad" } })).status()).toBe(403);
});
