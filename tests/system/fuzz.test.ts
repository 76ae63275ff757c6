import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toNumber } from "~/db/client.server";
import { NAME_MAX } from "~/lib/forms";
import { WELCOME_MESSAGE_MAX } from "~/services/admin/welcome-message.server";
import { createPostgresDatabase } from "../support/test-db";
import { startTwilioStandIn } from "../support/twilio-stand-in";
import { createAdmin, signIn } from "./support/admin-session";
import { contentType, formBody, hostileJsonValue, hostileText, jsonBody, twilioSignature, usually, VALID, type FuzzRequest } from "./support/hostile";
import { openSiteDatabase, rows } from "./support/inspect";
import { BUILD_SITE_URL, startSite, type SiteProcess } from "./support/site";
import { randomClientIp } from "./support/traffic";

const TWILIO = { accountSid: `AC${"f022".repeat(8)}`, authToken: "fuzz-twilio-auth-token-0123456789", from: "+18005550166" };
const ADMIN = { email: "fuzz-admin@patriotinvestor.example", password: "Bunker-Hill-1775!" };
const CLIENTS = 8;
/**
 * Requests per run, shared among the endpoints in the proportions below (which add up to 10,000).
 * 4,000 in `npm test` keeps CI short; `FUZZ_REQUESTS=10000 npm run test:system` for a deeper run.
 */
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 4_000);

/**
 * Generated hostile input (fast-check) against every form and JSON endpoint of a running site:
 * REQUESTS requests, no 5xx, and afterwards no stored row that breaks the rules the forms enforce.
 */
describe("fuzzing every form and JSON endpoint", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let twilio: Awaited<ReturnType<typeof startTwilioStandIn>>;
  let site: SiteProcess;
  let adminCookie: string;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    twilio = await startTwilioStandIn({ accountSid: TWILIO.accountSid, authToken: TWILIO.authToken });
    createAdmin({ DATABASE_URL: database.url }, ADMIN);
    site = await startSite({
      DATABASE_URL: database.url,
      TWILIO_ACCOUNT_SID: TWILIO.accountSid,
      TWILIO_AUTH_TOKEN: TWILIO.authToken,
      TWILIO_FROM: TWILIO.from,
      TWILIO_API_BASE: twilio.url,
    });
    adminCookie = await signIn(site.url, ADMIN);
  });

  afterAll(async () => {
    await site?.stop();
    await twilio?.close();
    await database?.drop();
  });

  /** Each endpoint: how many cases, and how to make one request. */
  const endpoints = (): { name: string; runs: number; request: fc.Arbitrary<FuzzRequest> }[] => {
    const ownOrigin = site.url;
    const json = (path: string, origin: string, fields: Record<string, fc.Arbitrary<unknown>>) =>
      fc.tuple(contentType("application/json"), jsonBody(fields)).map(([type, body]) => ({ path, headers: { "Content-Type": type, Origin: origin }, body }));
    const form = (path: string, fields: Record<string, fc.Arbitrary<unknown>>, headers: Record<string, string> = {}) =>
      fc.tuple(contentType("application/x-www-form-urlencoded"), formBody(fields)).map(([type, body]) => ({ path, headers: { "Content-Type": type, Origin: ownOrigin, ...headers }, body }));
    const inboundUrl = `${BUILD_SITE_URL}/api/sms/inbound`;
    return [
      {
        name: "opt-in JSON API",
        runs: 3200,
        request: json("/api/phone-optin", ownOrigin, {
          firstName: usually(VALID.name, hostileJsonValue),
          lastName: usually(VALID.name, hostileJsonValue),
          phone: usually(VALID.phone, hostileJsonValue),
          clickId: hostileJsonValue,
          smsConsent: usually(fc.constant(true), hostileJsonValue),
          termsConsent: usually(fc.constant(true), hostileJsonValue),
        }),
      },
      {
        name: "opt-in page form",
        runs: 1100,
        request: form("/opt-in", { firstName: usually(VALID.name), lastName: usually(VALID.name), phone: usually(VALID.phone), clickId: hostileText, smsConsent: usually(VALID.checkbox), termsConsent: usually(VALID.checkbox) }),
      },
      {
        name: "newsletter form",
        runs: 1300,
        request: form("/home", { firstName: usually(VALID.name), lastName: usually(VALID.name), email: usually(VALID.email), phone: usually(fc.oneof(VALID.phone, fc.constant(""))), smsConsent: usually(VALID.checkbox), termsConsent: usually(VALID.checkbox) }),
      },
      {
        name: "contact form",
        runs: 1200,
        request: form("/contact", { name: usually(VALID.name), email: usually(VALID.email), phone: hostileText, subject: usually(fc.constant("A question")), message: usually(fc.constant("Hello there.")), website: fc.oneof(fc.constant(""), hostileText) }),
      },
      {
        name: "sign-in API",
        runs: 500,
        request: json("/api/auth/sign-in/email", BUILD_SITE_URL, { email: usually(VALID.email, hostileJsonValue), password: hostileJsonValue, rememberMe: hostileJsonValue, callbackURL: hostileJsonValue }),
      },
      {
        name: "sign-up API",
        runs: 400,
        request: json("/api/auth/sign-up/email", BUILD_SITE_URL, { email: usually(VALID.email, hostileJsonValue), password: usually(VALID.password, hostileJsonValue), name: usually(VALID.name, hostileJsonValue), callbackURL: hostileJsonValue }),
      },
      {
        name: "sign-in and sign-up form",
        runs: 400,
        request: form("/auth", { intent: fc.oneof(fc.constantFrom("signin", "signup"), hostileText), email: usually(VALID.email), password: usually(VALID.password), name: usually(VALID.name) }),
      },
      {
        name: "inbound SMS webhook (signed)",
        runs: 1200,
        request: fc
          .tuple(
            formBody({
              From: usually(VALID.phone.map((phone) => `+1${phone}`)),
              To: fc.constant(TWILIO.from),
              Body: usually(fc.constantFrom("STOP", "HELP", "START", "stop please", "UNSUBSCRIBE", "Hi")),
              MessageSid: usually(fc.stringMatching(/^SM[0-9a-f]{32}$/)),
              OptOutType: fc.oneof(fc.constantFrom("STOP", "HELP", "START"), hostileText),
            }),
            fc.boolean(),
          )
          .map(([body, signed]) => ({
            path: "/api/sms/inbound",
            headers: { "Content-Type": "application/x-www-form-urlencoded", ...(signed ? { "X-Twilio-Signature": twilioSignature(TWILIO.authToken, inboundUrl, body) } : {}) },
            body,
          })),
      },
      {
        name: "admin welcome-text save",
        runs: 700,
        request: form(
          "/admin/sms",
          { intent: fc.oneof(fc.constantFrom("save", "test"), hostileText), message: usually(fc.constant("Welcome! Reply STOP to opt out.")), version: usually(fc.nat(6).map(String)), phone: usually(VALID.phone) },
          { Cookie: adminCookie },
        ),
      },
    ];
  };

  it(`answers ${REQUESTS.toLocaleString("en-US")} generated requests without a single 5xx and stores no malformed row`, async () => {
    const plan = endpoints();
    const share = (runs: number) => Math.max(1, Math.round((runs * REQUESTS) / 10_000));
    const cases = plan.flatMap((endpoint) => fc.sample(endpoint.request, { numRuns: share(endpoint.runs), seed: 20_261_122 + endpoint.runs }).map((request) => ({ endpoint: endpoint.name, request })));
    expect(cases).toHaveLength(plan.reduce((sum, endpoint) => sum + share(endpoint.runs), 0));
    expect(plan.reduce((sum, endpoint) => sum + endpoint.runs, 0)).toBe(10_000);

    const statuses = new Map<string, Map<number, number>>();
    const busyMs = new Map<string, number>();
    const failures: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        for (let index = next++; index < cases.length; index = next++) {
          const { endpoint, request } = cases[index]!;
          const started = performance.now();
          const status = await fetch(`${site.url}${request.path}`, {
            method: "POST",
            headers: { "X-Forwarded-For": randomClientIp(), ...request.headers },
            body: request.body,
            redirect: "manual",
          }).then(
            async (response) => {
              await response.arrayBuffer();
              return response.status;
            },
            () => 0,
          );
          busyMs.set(endpoint, (busyMs.get(endpoint) ?? 0) + performance.now() - started);
          const counts = statuses.get(endpoint) ?? new Map<number, number>();
          counts.set(status, (counts.get(status) ?? 0) + 1);
          statuses.set(endpoint, counts);
          // One example per endpoint, status and content type is enough to find the cause.
          const kind = `${endpoint} -> ${status} (${request.headers["Content-Type"]})`;
          if ((status === 0 || status >= 500) && !failures.some((failure) => failure.startsWith(kind))) {
            failures.push(`${kind}: ${JSON.stringify(request).slice(0, 300)}`);
          }
        }
      }),
    );
    console.info(
      [...statuses].map(([endpoint, counts]) => `${endpoint}: ${[...counts].sort(([a], [b]) => a - b).map(([status, n]) => `${status}x${n}`).join(" ")} (${Math.round(busyMs.get(endpoint)! / 1000)} s)`).join("\n"),
    );
    expect(failures).toEqual([]);
    expect(site.child.exitCode).toBeNull();

    const handle = await openSiteDatabase({ url: database.url });
    try {
      const count = async (query: string) => toNumber((await rows<{ n: unknown }>(handle, query))[0]!.n);
      // Storage happened: the fuzz reached the inserts, not only the validators.
      expect(await count("SELECT count(*) AS n FROM subscribers WHERE channel = 'sms'")).toBeGreaterThan(50);
      expect(await count("SELECT count(*) AS n FROM subscribers WHERE channel = 'email'")).toBeGreaterThan(50);
      expect(await count("SELECT count(*) AS n FROM contact_messages")).toBeGreaterThan(50);
      const malformed = {
        subscriberNames: `SELECT count(*) AS n FROM subscribers WHERE source <> 'sms-keyword' AND (btrim(first_name) = '' OR btrim(last_name) = '' OR char_length(first_name) > ${NAME_MAX} OR char_length(last_name) > ${NAME_MAX})`,
        subscriberPhones: "SELECT count(*) AS n FROM subscribers WHERE channel = 'sms' AND phone_e164 !~ '^\\+1[2-9][0-9]{2}[2-9][0-9]{6}$'",
        subscriberEmails: "SELECT count(*) AS n FROM subscribers WHERE channel = 'email' AND (email !~ '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' OR char_length(email) > 254)",
        subscribersWithoutConsent: "SELECT count(*) AS n FROM subscribers s WHERE NOT EXISTS (SELECT 1 FROM consent_events c WHERE c.subscriber_id = s.id)",
        smsOptInsWithoutBothBoxes: "SELECT count(*) AS n FROM consent_events WHERE channel = 'sms' AND action = 'opt_in' AND source = 'opt-in' AND consent_text IS NULL",
        contactMessages: "SELECT count(*) AS n FROM contact_messages WHERE btrim(name) = '' OR char_length(name) > 100 OR char_length(subject) > 150 OR char_length(message) > 5000 OR email !~ '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$'",
        users: "SELECT count(*) AS n FROM \"user\" WHERE email !~ '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' OR email <> lower(email)",
        welcomeText: `SELECT count(*) AS n FROM sms_config WHERE btrim(welcome_message) = '' OR char_length(welcome_message) > ${WELCOME_MESSAGE_MAX}`,
      };
      const found = Object.fromEntries(await Promise.all(Object.entries(malformed).map(async ([name, query]) => [name, await count(query)] as const)));
      expect(found).toEqual(Object.fromEntries(Object.keys(malformed).map((name) => [name, 0])));
    } finally {
      await handle.close();
    }
  });

  // Runs last: generated hostile input is the client's doing, never a fault of the server.
  it("logged not one line at level 50 or 60 while answering it", () => {
    expect(site.output().split("\n").filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
  });
});
