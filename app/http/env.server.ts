import { existsSync } from "node:fs";
import { z } from "zod";
import { isTimeZone } from "~/services/analytics/site-clock";
import { offerTemplateProblem } from "~/services/analytics/offer-url";

const BooleanFromString = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((value) => value === "true" || value === "1");

const HostListSchema = z
  .string()
  .transform((value) =>
    value
      .split(",")
      .map((host) => host.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().regex(/^[a-z0-9.-]+$/, "must be bare host names, e.g. example.com")).min(1));

/**
 * Raw Ed25519 public keys, base64, comma-separated (CONSENT_RETIRED_PUBLIC_KEYS). A bad entry is
 * named by its place, never printed: a secret pasted here by mistake must not reach the log.
 */
const PublicKeyListSchema = z
  .string()
  .transform((value) =>
    value
      .split(",")
      .map((key) => key.trim())
      .filter(Boolean),
  )
  .superRefine((keys, ctx) => {
    keys.forEach((key, index) => {
      if (isRawEd25519PublicKey(key)) return;
      ctx.addIssue({
        code: "custom",
        message: `entry ${index + 1} of ${keys.length} is not an Ed25519 public key: each is 32 bytes in base64 (44 characters ending in "="), exactly as /admin/consent and npm run consent:verify print it; never a secret`,
      });
    });
  });

// Strict: the text must be what encoding its 32 bytes gives back, so a typo is refused rather than decoded leniently.
function isRawEd25519PublicKey(text: string) {
  const bytes = Buffer.from(text, "base64");
  return bytes.length === 32 && bytes.toString("base64") === text;
}

/**
 * Every setting the server reads. Defaults make `npm start` work with no configuration;
 * `.env.example` documents each one.
 */
export const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** The most log output held while stdout is not being read (a stalled pipe or log agent); past it, lines are dropped and counted. */
  LOG_BUFFER_MB: z.coerce.number().min(0.0625).max(1024).default(16),
  SITE_NAME: z.string().trim().min(2).max(60).default("Patriot Investor"),
  /** Unset: the address the server listens on (defaultSiteUrl), so every link it prints or bakes in reaches it. */
  SITE_URL: z
    .url({ protocol: /^https?$/, error: "must be an absolute http(s) URL, e.g. https://example.com" })
    .transform((value) => value.replace(/\/+$/, ""))
    .optional(),
  MAIN_DOMAINS: HostListSchema.default(["localhost"]),
  SITE_EMAIL: z.email().default("info@patriotinvestor.example"),
  SITE_PHONE: z
    .string()
    .regex(/^[0-9+() .-]{7,20}$/, "must be a phone number such as 1-800-555-0199")
    .default("1-800-555-0199"),
  /** The sponsor's offer behind /go/offer: a URL, or a template with the visit's {sub1}…{sub5}, {utm_*} (decision 152). */
  OFFER_URL: z
    .url({ protocol: /^https?$/ })
    .superRefine((value, ctx) => {
      const problem = offerTemplateProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .default("https://offers.example.com/free-retirement-wealth-guide"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// connection URL")
    .optional(),
  DNC_POLICY: z.enum(["refuse", "allow_with_consent"]).default("refuse"),
  /** Signs session cookies; at least 32 characters. Required with DATABASE_URL in production; otherwise generated once into DATA_DIR. */
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters (openssl rand -base64 48)").optional(),
  /**
   * Signs the consent chain's head and the consent certificates (Ed25519 derived from it); at least
   * 32 characters, kept outside the database. Without it the key is derived from AUTH_SECRET (or the
   * secret generated into DATA_DIR), so processes sharing PostgreSQL share it as they share that.
   */
  CONSENT_SIGNING_KEY: z.string().min(32, "must be at least 32 characters (openssl rand -base64 48)").optional(),
  /**
   * Public keys (base64, comma-separated) of consent signing keys no longer used to sign: a head
   * signed by one of them still verifies after CONSENT_SIGNING_KEY changed (decision 069).
   */
  CONSENT_RETIRED_PUBLIC_KEYS: PublicKeyListSchema.default([]),
  /** How often the consent chain's head is signed when it has moved (decision 069). */
  CONSENT_HEAD_SIGN_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /** The append-only file every signed head is also written to, outside the database (decision 081); default DATA_DIR/consent-witness.jsonl. */
  CONSENT_WITNESS_FILE: z.string().min(1).optional(),
  /** A compliance mailbox the day's signed head (and a break, at once) is mailed to (decision 081). */
  CONSENT_WITNESS_EMAIL: z.email().optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL").optional(),
  MAIL_FROM: z.string().min(3).default("Patriot Investor <no-reply@patriotinvestor.example>"),
  ADMIN_REQUIRE_2FA: BooleanFromString,
  /** How often each process deletes passed rate-limit windows, expired sessions and tokens. */
  HOUSEKEEPING_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  TWILIO_ACCOUNT_SID: z.string().regex(/^AC[0-9a-fA-F]{32}$/, "must look like AC followed by 32 hex digits").optional(),
  TWILIO_AUTH_TOKEN: z.string().min(16).optional(),
  TWILIO_FROM: z.string().regex(/^\+[1-9][0-9]{6,14}$/, "must be an E.164 number such as +18005550199").optional(),
  TWILIO_MESSAGING_SERVICE_SID: z.string().regex(/^MG[0-9a-fA-F]{32}$/).optional(),
  /** Double opt-in: the first text asks for a "Y"; only a confirmed number is subscribed (COMPLIANCE.md 1.4). */
  SMS_DOUBLE_OPT_IN: BooleanFromString,
  /** A conversion postback URL template with {clickId}, {event}, {timestamp} (and optionally {id}). */
  CONVERSION_POSTBACK_URL: z
    .url({ protocol: /^https?$/, error: "must be an absolute http(s) URL template, e.g. https://track.example.com/postback?cid={clickId}&event={event}&ts={timestamp}" })
    .refine((value) => value.includes("{clickId}"), "must contain {clickId}, or the network cannot tell which click converted")
    .optional(),
  /**
   * Whether the postback feeds an ad platform (an ad network, or a tracker that passes click ids
   * on to one): then a sign-up whose browser sent Sec-GPC: 1 gets none (decision 153). "no" only
   * for a first-party endpoint.
   */
  CONVERSION_POSTBACK_AD_PLATFORM: z
    .enum(["yes", "no"], { error: 'must be "yes" (the postback feeds an ad platform) or "no" (a first-party endpoint)' })
    .default("yes")
    .transform((value) => value === "yes"),
  /** Verifies Mailgun's event webhook (bounces, complaints) at /api/email/events/mailgun. */
  MAILGUN_WEBHOOK_SIGNING_KEY: z.string().min(16).optional(),
  /** The sender's postal address, printed in every newsletter (CAN-SPAM); required to send one. */
  SITE_POSTAL_ADDRESS: z.string().trim().min(10).max(300).optional(),
  /** Newsletters per second through SMTP (the provider's limit), across all processes. */
  NEWSLETTER_RATE: z.coerce.number().positive().max(10_000).default(50),
  /**
   * Mailgun's Events API, asked whether a newsletter copy interrupted mid-send was accepted
   * (exactly once across crashes). Without it such a copy is failed, never sent twice.
   */
  MAILGUN_API_KEY: z.string().min(8).optional(),
  MAILGUN_DOMAIN: z.string().regex(/^[a-z0-9.-]+$/i, "must be the sending domain, e.g. mg.example.com").optional(),
  MAILGUN_API_BASE: z.url({ protocol: /^https?$/ }).default("https://api.mailgun.net"),
  /** Campaign texts per second across all processes (Twilio long code 1; 10DLC by trust score; toll-free 3+; short code 100). */
  /** The Reassigned Numbers Database (decision 071): its query API, and the campaign rule. */
  RND_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  RND_API_KEY: z.string().min(8).optional(),
  RND_CHECK_AFTER_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
  RND_ANSWER_MAX_AGE_DAYS: z.coerce.number().int().min(1).max(365).default(31),
  RND_NO_DATA: z.enum(["skip", "send"]).default("skip"),
  SMS_MPS: z.coerce.number().positive().max(1000).default(1),
  /** USD per SMS segment, for the cost estimate and the results. */
  SMS_PRICE_PER_SEGMENT: z.coerce.number().min(0).max(1).default(0.0083),
  /** Sending an alert to more people than this needs the typed count (and a fresh 2FA code). */
  ALERT_CONFIRM_ABOVE: z.coerce.number().int().min(0).default(1000),
  /** A campaign text left "sending" this long (its process died) is settled by asking the provider. */
  SEND_IN_DOUBT_SECONDS: z.coerce.number().int().min(15, "must be at least 15 (longer than a send may take: the 10 s provider timeout)").max(3600).default(60),
  /** Tests only: judge quiet hours this many minutes later than now, so a test run works at any hour. Leave unset. */
  SEND_TEST_QUIET_HOURS_OFFSET_MINUTES: z.coerce.number().int().min(-1440).max(1440).default(0),
  /** Memory for the article and author pages kept rendered (gzip + brotli), least recently used out first (decisions 075, 137). */
  PAGE_CACHE_MB: z.coerce.number().int().min(1).max(65_536).default(128),
  /** Days a page's disk copy under DATA_DIR/pages is kept without being read (server/page-store.ts). */
  PAGE_FILES_KEEP_DAYS: z.coerce.number().int().min(1).max(3_650).default(30),
  /** Items in /rss.xml and each category's feed: the latest ones, with full content (issue 26). */
  RSS_ITEMS: z.coerce.number().int().min(1).max(500).default(20),
  /** Twilio's API address; only tests point it elsewhere (a local stand-in on 127.0.0.1). */
  TWILIO_API_BASE: z.url().default("https://api.twilio.com"),
  /** Page views counted on the server (decision 141); "off" counts nothing. */
  ANALYTICS: z.enum(["on", "off"]).default("on"),
  /** The time zone of the analytics days and hours (an IANA name). */
  ANALYTICS_TIME_ZONE: z
    .string()
    .refine(isTimeZone, "must be an IANA time zone name such as America/New_York")
    .default("America/New_York"),
  /** How often each process writes its counts (one upsert per rollup table); a kill loses at most this. */
  ANALYTICS_FLUSH_SECONDS: z.coerce.number().int().min(1).max(3600).default(5),
  /** Views per minute one client (address and user agent) may make, per process, before the rest count as excluded. */
  ANALYTICS_VIEWS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
}).superRefine((env, ctx) => {
  // Processes sharing PostgreSQL must share the secret; a single embedded install keeps a generated one.
  if (env.NODE_ENV === "production" && env.DATABASE_URL && !env.AUTH_SECRET) {
    ctx.addIssue({ code: "custom", path: ["AUTH_SECRET"], message: "is required with DATABASE_URL in production (openssl rand -base64 48)" });
  }
  const twilio = [env.TWILIO_ACCOUNT_SID, env.TWILIO_AUTH_TOKEN].filter(Boolean).length;
  if (twilio === 1) ctx.addIssue({ code: "custom", path: ["TWILIO_AUTH_TOKEN"], message: "TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN go together" });
  if (Boolean(env.RND_API_URL) !== Boolean(env.RND_API_KEY)) ctx.addIssue({ code: "custom", path: ["RND_API_KEY"], message: "RND_API_URL and RND_API_KEY go together" });
  if (twilio === 2 && !env.TWILIO_FROM && !env.TWILIO_MESSAGING_SERVICE_SID) {
    ctx.addIssue({ code: "custom", path: ["TWILIO_FROM"], message: "set TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID to send through Twilio" });
  }
}).transform((env) => ({ ...env, SITE_URL: env.SITE_URL ?? defaultSiteUrl(env.PORT, env.HOST) }));

/**
 * SITE_URL when it is not set: http on the port the server listens on, at the interface it
 * listens on, or localhost when that is every interface (0.0.0.0, ::). `PORT=3990 npm start`
 * then prints and bakes in http://localhost:3990 (the build fingerprint in
 * scripts/build-info.mjs applies the same rule).
 */
export function defaultSiteUrl(port: number, host: string): string {
  const name = host === "0.0.0.0" || host === "::" ? "localhost" : host.includes(":") ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

export type Env = z.infer<typeof EnvSchema>;

export class EnvError extends Error {
  override name = "EnvError";
  /** One line per bad setting, e.g. "PORT: Invalid input". */
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((line) => `  ${line}`).join("\n")}`);
    this.problems = problems;
  }
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  // An empty variable means "not set", the way a .env line `SMTP_URL=` reads.
  const defined = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ""));
  const result = EnvSchema.safeParse(defined);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  }
  return result.data;
}

function loadDotEnv() {
  if (process.env.NODE_ENV !== "test" && existsSync(".env")) process.loadEnvFile(".env");
}

let cached: Env | undefined;

/** The validated configuration, parsed once per process. */
export function getEnv(): Env {
  if (!cached) {
    loadDotEnv();
    cached = parseEnv(process.env);
  }
  return cached;
}

