import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toNumber } from "~/db/client.server";
import { FORM_BODY_LIMIT } from "~/http/body.server";
import { OPEN_REDIRECT_PAYLOADS } from "../support/open-redirects";
import { createPostgresDatabase } from "../support/test-db";
import { startTwilioStandIn } from "../support/twilio-stand-in";
import { createAdmin, signIn } from "./support/admin-session";
import { SQL_INJECTION, twilioSignature } from "./support/hostile";
import { openSiteDatabase, rows } from "./support/inspect";
import { BUILD_SITE_URL, startSite, type SiteProcess } from "./support/site";
import { mobileNumber, randomClientIp } from "./support/traffic";

const TWILIO = { accountSid: `AC${"b0a7".repeat(8)}`, authToken: "hostile-input-auth-token-01234567", from: "+18005550155" };
const ADMIN = { email: "hostile-admin@patriotinvestor.example", password: "Saratoga-1777-Victory!" };

type Probe = { path: string; type: string; body: string; headers?: Record<string, string> };

/** Exact expectations for hostile requests (SECURITY.md section 8), on a running site over PostgreSQL. */
describe("hostile input", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let twilio: Awaited<ReturnType<typeof startTwilioStandIn>>;
  let site: SiteProcess;
  let adminCookie: string;
  let handle: Awaited<ReturnType<typeof openSiteDatabase>>;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    twilio = await startTwilioStandIn({ accountSid: TWILIO.accountSid, authToken: TWILIO.authToken });
    createAdmin({ DATABASE_URL: database.url }, ADMIN);
    site = await startSite({ DATABASE_URL: database.url, TWILIO_ACCOUNT_SID: TWILIO.accountSid, TWILIO_AUTH_TOKEN: TWILIO.authToken, TWILIO_FROM: TWILIO.from, TWILIO_API_BASE: twilio.url });
    adminCookie = await signIn(site.url, ADMIN);
    handle = await openSiteDatabase({ url: database.url });
  });

  afterAll(async () => {
    // A crash here would show as refused connections in every later test: print why.
    if (site && site.child.exitCode !== null) console.info(`the server exited (${site.child.exitCode}):\n${site.output()}`);
    await handle?.close();
    await site?.stop();
    await twilio?.close();
    await database?.drop();
  });

  /** Row counts of every table a form writes, to prove a refused request changed nothing. */
  const snapshot = async () => {
    const [row] = await rows<Record<string, unknown>>(
      handle,
      `SELECT (SELECT count(*) FROM subscribers) AS subscribers, (SELECT count(*) FROM consent_events) AS consent,
              (SELECT count(*) FROM contact_messages) AS contact, (SELECT count(*) FROM "user") AS users,
              (SELECT count(*) FROM campaign_recipients WHERE campaign_id IS NULL) AS sms, (SELECT version FROM sms_config LIMIT 1) AS welcome_version,
              (SELECT count(*) FROM session) AS sessions`,
    );
    return Object.fromEntries(Object.entries(row!).map(([name, value]) => [name, toNumber(value)]));
  };

  const send = (probe: Probe, headers: Record<string, string> = {}) =>
    fetch(`${site.url}${probe.path}`, {
      method: "POST",
      headers: { "Content-Type": probe.type, "X-Forwarded-For": randomClientIp(), ...probe.headers, ...headers },
      body: probe.body,
      redirect: "manual",
    });

  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const inboundUrl = `${BUILD_SITE_URL}/api/sms/inbound`;
  const signedInbound = (fields: Record<string, string>): Probe => {
    const body = form(fields);
    return { path: "/api/sms/inbound", type: "application/x-www-form-urlencoded", body, headers: { "X-Twilio-Signature": twilioSignature(TWILIO.authToken, inboundUrl, body) } };
  };

  /** One valid request per endpoint, with `value` in its main text field. */
  const endpoints = (value: string, phone = mobileNumber(Math.floor(Math.random() * 1_000_000))): Record<string, Probe> => {
    const own = { Origin: site.url };
    const auth = { Origin: BUILD_SITE_URL };
    return {
      optInApi: { path: "/api/phone-optin", type: "application/json", body: JSON.stringify({ firstName: value, lastName: "Smith", phone, smsConsent: true, termsConsent: true }) },
      optInPage: { path: "/opt-in", type: "application/x-www-form-urlencoded", body: form({ firstName: value, lastName: "Smith", phone, smsConsent: "on", termsConsent: "on" }), headers: own },
      newsletter: { path: "/home", type: "application/x-www-form-urlencoded", body: form({ firstName: value, lastName: "Smith", email: `n${Date.now()}${Math.random()}@example.com`, phone, termsConsent: "on" }), headers: own },
      contact: { path: "/contact", type: "application/x-www-form-urlencoded", body: form({ name: value, email: "c@example.com", subject: "Hello", message: "A question." }), headers: own },
      signIn: { path: "/api/auth/sign-in/email", type: "application/json", body: JSON.stringify({ email: `${value}@example.com`, password: "whatever-1234" }), headers: auth },
      signUp: { path: "/api/auth/sign-up/email", type: "application/json", body: JSON.stringify({ email: `u${Date.now()}${Math.floor(Math.random() * 1e6)}@example.com`, password: "Trenton-1776-Crossing", name: value }), headers: auth },
      authForm: { path: "/auth", type: "application/x-www-form-urlencoded", body: form({ intent: "signup", email: `f${Date.now()}${Math.floor(Math.random() * 1e6)}@example.com`, password: "Trenton-1776-Crossing", name: value }), headers: own },
      inboundSms: signedInbound({ From: `+1${phone}`, To: TWILIO.from, Body: value, MessageSid: `SM${"0".repeat(24)}${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}` }),
      adminSave: { path: "/admin/sms", type: "application/x-www-form-urlencoded", body: form({ intent: "save", message: value, version: "1" }), headers: { ...own, Cookie: adminCookie } },
    };
  };

  it("answers NUL characters with 400 on every endpoint and stores nothing", async () => {
    const before = await snapshot();
    for (const [name, probe] of Object.entries(endpoints("Ab\u0000igail"))) {
      const response = await send(probe);
      expect(response.status, name).toBe(400);
      // The JSON answers say why; the pages show the same text in their form notice.
      if (probe.type === "application/json") expect(await response.text(), name).toContain("NUL character");
    }
    expect(await snapshot()).toEqual(before);
  });

  it("answers over-long fields and wrong types with 400 and stores nothing", async () => {
    const before = await snapshot();
    const long = "x".repeat(5001);
    const longEmail = `${"x".repeat(250)}@example.com`;
    const all = endpoints(long);
    const probes: Record<string, Probe> = {
      optInApi: all.optInApi!,
      optInPage: all.optInPage!,
      newsletter: all.newsletter!,
      contact: { ...all.contact!, body: form({ name: "Ann", email: "c@example.com", subject: "Hello", message: `${long}x` }) },
      contactEmail: { ...all.contact!, body: form({ name: "Ann", email: longEmail, subject: "Hello", message: "Hi" }) },
      signUp: all.signUp!,
      signUpEmail: { ...all.signUp!, body: JSON.stringify({ email: longEmail, password: "Trenton-1776-Crossing", name: "Ann" }) },
      authForm: { ...all.authForm!, body: form({ intent: "signup", email: longEmail, password: "Trenton-1776-Crossing" }) },
      adminSave: all.adminSave!,
      optInPhoneNumber: { path: "/api/phone-optin", type: "application/json", body: JSON.stringify({ firstName: "A", lastName: "B", phone: 3_125_550_123, smsConsent: true, termsConsent: true }) },
      optInConsentText: { path: "/api/phone-optin", type: "application/json", body: JSON.stringify({ firstName: "A", lastName: "B", phone: mobileNumber(1), smsConsent: "yes please", termsConsent: true }) },
      optInArray: { path: "/api/phone-optin", type: "application/json", body: "[]" },
      signInEmailNumber: { path: "/api/auth/sign-in/email", type: "application/json", body: JSON.stringify({ email: 42, password: "x" }), headers: { Origin: BUILD_SITE_URL } },
      signUpLongPassword: { path: "/api/auth/sign-up/email", type: "application/json", body: JSON.stringify({ email: "long@example.com", password: "p".repeat(129), name: "Long" }), headers: { Origin: BUILD_SITE_URL } },
      malformedJson: { path: "/api/phone-optin", type: "application/json", body: '{"firstName":' },
    };
    for (const [name, probe] of Object.entries(probes)) expect((await send(probe)).status, name).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it("answers bodies over the limit with 413, announced or chunked", async () => {
    // Forms and JSON allow 16 KB, Twilio's webhooks 64 KB: one size over both.
    const big = "x".repeat(Math.max(FORM_BODY_LIMIT, 64 * 1024) + 1);
    const before = await snapshot();
    for (const [name, probe] of Object.entries(endpoints(big))) {
      expect((await send(probe)).status, `${name} with Content-Length`).toBe(413);
      const chunked = await fetch(`${site.url}${probe.path}`, {
        method: "POST",
        headers: { "Content-Type": probe.type, "X-Forwarded-For": randomClientIp(), ...probe.headers },
        body: new Blob([probe.body]).stream(),
        duplex: "half",
        redirect: "manual",
      } as RequestInit);
      expect(chunked.status, `${name} chunked`).toBe(413);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("answers wrong content types with 415", async () => {
    for (const [name, probe] of Object.entries(endpoints("Abigail"))) {
      const wrong = probe.type === "application/json" ? "text/plain" : "application/json";
      expect((await send({ ...probe, type: wrong })).status, name).toBe(415);
    }
  });

  it("refuses cross-site and Origin: null posts with 403 and changes nothing", async () => {
    const before = await snapshot();
    for (const [name, probe] of Object.entries(endpoints("Abigail"))) {
      for (const origin of ["https://evil.example", "null", `${BUILD_SITE_URL}.evil.example`, BUILD_SITE_URL.replace("https:", "http:")]) {
        expect((await send(probe, { Origin: origin })).status, `${name} from ${origin}`).toBe(403);
      }
      const { Origin: _ignored, ...withoutOrigin } = probe.headers ?? {};
      expect((await send({ ...probe, headers: withoutOrigin }, { "Sec-Fetch-Site": "cross-site" })).status, `${name} cross-site fetch`).toBe(403);
    }
    // With the admin's session but no Origin or Referer at all: refused too.
    const adminSave = endpoints("Welcome!").adminSave!;
    expect((await send({ ...adminSave, headers: { Cookie: adminCookie } })).status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it("stores SQL injection strings byte for byte", async () => {
    const before = await snapshot();
    const phone = mobileNumber(654_321);
    const text = SQL_INJECTION.join(" ");
    const optIn = endpoints(SQL_INJECTION[1]!, phone).optInApi!;
    expect((await send(optIn)).status).toBe(200);
    expect((await send({ path: "/contact", type: "application/x-www-form-urlencoded", body: form({ name: SQL_INJECTION[0]!, email: "sqli@example.com", subject: SQL_INJECTION[2]!, message: text }), headers: { Origin: site.url } })).status).toBeLessThan(400);

    const [subscriber] = await rows<{ first_name: string }>(handle, `SELECT first_name FROM subscribers WHERE phone_e164 = '+1${phone}'`);
    expect(subscriber!.first_name).toBe(SQL_INJECTION[1]);
    const [contact] = await rows<{ name: string; subject: string; message: string }>(handle, "SELECT name, subject, message FROM contact_messages WHERE email = 'sqli@example.com'");
    expect(contact).toEqual({ name: SQL_INJECTION[0], subject: SQL_INJECTION[2], message: text });
    const after = await snapshot();
    expect(after).toEqual({ ...before, subscribers: before.subscribers! + 1, consent: before.consent! + 1, contact: before.contact! + 1, sms: before.sms! + 1 });
  });

  describe("open redirects: every return-path parameter ends on our own site", () => {
    const ownSite = (location: string | null) => location === null || new URL(location, site.url).origin === new URL(site.url).origin;

    it.each(OPEN_REDIRECT_PAYLOADS)("%s", async (payload) => {
      const query = `redirectTo=${encodeURIComponent(payload)}`;
      // A signed-in visitor of /auth is sent back to the return path.
      const visit = await fetch(`${site.url}/auth?${query}`, { headers: { Cookie: adminCookie }, redirect: "manual" });
      expect(visit.status).toBe(302);
      expect(ownSite(visit.headers.get("location")), `GET /auth: ${visit.headers.get("location")}`).toBe(true);

      // Signing in through the page's form.
      const signInForm = await send({ path: `/auth?${query}`, type: "application/x-www-form-urlencoded", body: form({ intent: "signin", email: ADMIN.email, password: ADMIN.password }), headers: { Origin: site.url } });
      expect(signInForm.status).toBeGreaterThanOrEqual(300);
      expect(signInForm.status).toBeLessThan(400);
      expect(ownSite(signInForm.headers.get("location")), `POST /auth: ${signInForm.headers.get("location")}`).toBe(true);

      // The second sign-in step keeps the same rule.
      const twoFactor = await fetch(`${site.url}/auth/two-factor?${query}`, { redirect: "manual" });
      expect(ownSite(twoFactor.headers.get("location"))).toBe(true);

      // better-auth's own parameters: refused outright.
      const auth = { Origin: BUILD_SITE_URL };
      const signUp = await send({ path: "/api/auth/sign-up/email", type: "application/json", body: JSON.stringify({ email: `r${Math.random()}@example.com`, password: "Trenton-1776-Crossing", name: "R", callbackURL: payload }), headers: auth });
      expect(signUp.status).toBe(403);
      const reset = await send({ path: "/api/auth/request-password-reset", type: "application/json", body: JSON.stringify({ email: ADMIN.email, redirectTo: payload }), headers: auth });
      expect(reset.status).toBe(403);
      const verify = await fetch(`${site.url}/api/auth/verify-email?token=not-a-token&callbackURL=${encodeURIComponent(payload)}`, { redirect: "manual" });
      expect(verify.status).toBeGreaterThanOrEqual(400);
      expect(ownSite(verify.headers.get("location"))).toBe(true);
    });

    it("a legitimate path passes", async () => {
      const visit = await fetch(`${site.url}/auth?redirectTo=${encodeURIComponent("/articles/x?ref=nav")}`, { headers: { Cookie: adminCookie }, redirect: "manual" });
      expect(visit.headers.get("location")).toBe("/articles/x?ref=nav");
    });
  });

  it("answers an unknown method or a post to a page without an action with 405 and Allow", async () => {
    const options = await fetch(`${site.url}/contact`, { method: "OPTIONS" });
    expect(options.status).toBe(405);
    expect(options.headers.get("allow")).toBe("GET, HEAD, POST");
    const postToPage = await fetch(`${site.url}/about`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: site.url }, body: "a=1" });
    expect(postToPage.status).toBe(405);
    expect(postToPage.headers.get("allow")).toBe("GET, HEAD");
    const optionsData = await fetch(`${site.url}/about.data`, { method: "OPTIONS" });
    expect(optionsData.status).toBe(405);
    expect(optionsData.headers.get("allow")).toBe("GET, HEAD");
  });

  // Runs last: every refusal above (foreign origins, bad bodies, wrong methods, injections) was
  // the client's doing, so none may be logged as a fault of the server (issue 21).
  it("logged not one line at level 50 or 60 for all of the above", () => {
    expect(site.output().split("\n").filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
  });
});
