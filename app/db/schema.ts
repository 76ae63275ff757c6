import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  char,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

import { user } from "./auth-schema";

export * from "./auth-schema";

const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();

/** The single welcome-SMS row; `version` guards against saving over someone else's change. */
export const smsConfig = pgTable("sms_config", {
  id: integer().primaryKey(),
  welcomeMessage: text().notNull(),
  version: integer().notNull().default(1),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedBy: text(),
});

/**
 * One row per person and channel identity: an SMS row is keyed by the E.164 number, an e-mail
 * row by the lower-cased address. Status is that channel's.
 */
export const subscribers = pgTable(
  "subscribers",
  {
    id: uuid().primaryKey().defaultRandom(),
    channel: text({ enum: ["sms", "email"] }).notNull(),
    phoneE164: text("phone_e164"),
    email: text(),
    /** What the person typed in the phone field of the newsletter form (e-mail rows). */
    phoneRaw: text(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    /**
     * SMS: active, opted_out, refused_dnc; with double opt-in (SMS_DOUBLE_OPT_IN=true) also pending,
     * expired and declined. E-mail: pending (not confirmed yet), active, unsubscribed, expired (never
     * confirmed), bounced and complained (suppressed for good). SMS `lapsed`: the Reassigned
     * Numbers Database said the number was disconnected after the consent (decision 071); a new
     * opt-in makes the row active again.
     */
    status: text({ enum: ["active", "opted_out", "refused_dnc", "unsubscribed", "pending", "expired", "declined", "bounced", "complained", "lapsed"] }).notNull(),
    source: text({ enum: ["opt-in", "newsletter", "sms-keyword", "import"] }).notNull(),
    clickId: text(),
    utmSource: text(),
    utmMedium: text(),
    utmCampaign: text(),
    /** A pending double opt-in expires when this passes without a Y. */
    confirmBy: timestamp({ withTimezone: true }),
    /** E-mail rows: when the person confirmed the address (POST on the confirmation page). */
    confirmedAt: timestamp({ withTimezone: true }),
    /** E-mail rows: the secret in every unsubscribe and preferences link; never expires. */
    emailToken: text(),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("subscribers_pending_confirm_by_idx").on(table.confirmBy).where(sql`${table.status} = 'pending'`),
    uniqueIndex("subscribers_sms_phone_unique").on(table.phoneE164).where(sql`${table.channel} = 'sms'`),
    uniqueIndex("subscribers_email_unique").on(table.email).where(sql`${table.channel} = 'email'`),
    index("subscribers_created_at_idx").on(table.createdAt),
    uniqueIndex("subscribers_email_token_unique").on(table.emailToken),
    check(
      "subscribers_identity",
      sql`(${table.channel} = 'sms' AND ${table.phoneE164} ~ '^\\+1[2-9][0-9]{9}$') OR (${table.channel} = 'email' AND ${table.email} IS NOT NULL AND ${table.email} = lower(${table.email}))`,
    ),
  ],
);

/** Append-only consent evidence (a trigger refuses UPDATE and DELETE). */
export const consentEvents = pgTable(
  "consent_events",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    subscriberId: uuid()
      .notNull()
      .references(() => subscribers.id),
    channel: text({ enum: ["sms", "email"] }).notNull(),
    action: text({
      enum: [
        "opt_in",
        "opt_out",
        "start",
        "help",
        "refused_dnc",
        "email_subscribe",
        "doi_confirmed",
        "doi_declined",
        "doi_expired",
        "email_confirm",
        "email_unsubscribe",
        "email_resubscribe",
        "email_bounce",
        "email_complaint",
        "email_import",
        "rnd_lapsed",
        "phone_confirmed",
      ],
    }).notNull(),
    phoneE164: text("phone_e164"),
    phoneRaw: text(),
    email: text(),
    firstName: text(),
    lastName: text(),
    /** The exact disclosure shown, its version and SHA-256. */
    consentText: text(),
    consentVersion: text(),
    consentTextSha256: text(),
    termsText: text(),
    termsVersion: text(),
    smsCheckbox: boolean(),
    termsCheckbox: boolean(),
    ip: text(),
    userAgent: text(),
    acceptLanguage: text(),
    pageUrl: text(),
    referrer: text(),
    clickId: text(),
    source: text(),
    dncPolicy: text(),
    dncResult: text(),
    dncDataDate: date(),
    inboundMessageSid: text(),
    inboundBody: text(),
    /**
     * What the person did on the form where JavaScript ran (decision 077): durations and times
     * since the page started loading, never keystrokes. Null without JavaScript.
     */
    interaction: jsonb(),
    /**
     * The page the form was on as the server sends it: the SHA-256 of its document in
     * served_pages (the prerendered template, before the landing URL's values are written in;
     * decision 079). Null where the page was not one the server answers from memory.
     */
    servedPageSha256: text("served_page_sha256"),
    /**
     * When this server sent the page with the form, from the signed cookie it set with that page
     * (decision 080): the server's own time, with or without JavaScript. Null where the request
     * carried no valid cookie (the JSON API, texts, links in e-mails, cookies refused).
     */
    formServedAt: timestamp("form_served_at", { withTimezone: true }),
    occurredAt: createdAt(),
  },
  (table) => [
    index("consent_events_subscriber_idx").on(table.subscriberId, table.occurredAt),
    // The staff home counts sign-ups and opt-outs by time.
    index("consent_events_occurred_at_idx").on(table.occurredAt),
    uniqueIndex("consent_events_inbound_sid").on(table.inboundMessageSid),
  ],
);

/**
 * The hash chain over consent_events (decision 069). Each consent event gets one row, in the order
 * a single sealing step took it (seq, gap-free from 1): its hash covers the event's content and
 * the previous row's hash. Append-only, like the events.
 */
export const consentChain = pgTable(
  "consent_chain",
  {
    seq: bigint({ mode: "number" }).primaryKey(),
    /** No foreign key: a deleted event must leave its chain row behind for the verification to name. */
    eventId: bigint({ mode: "number" }).notNull(),
    /** Which canonical form of the event the hash covers (consent-chain.server.ts). */
    version: integer().notNull().default(1),
    prevHash: text().notNull(),
    hash: text().notNull(),
    sealedAt: createdAt(),
  },
  (table) => [uniqueIndex("consent_chain_event_id").on(table.eventId)],
);

/**
 * Consent events not yet in the chain, filled by a trigger in the statement that inserts the event
 * (so no event can be missed) and emptied by the sealing step. No unique key: nothing needs one
 * (the sealer takes each id once), and the trigger stays one plain insert.
 */
export const consentChainPending = pgTable(
  "consent_chain_pending",
  {
    eventId: bigint({ mode: "number" }).notNull(),
  },
  (table) => [index("consent_chain_pending_event_id").on(table.eventId)],
);

/** The chain's head, signed with a key kept outside the database (CONSENT_SIGNING_KEY), now and then. */
export const consentChainHeads = pgTable("consent_chain_heads", {
  id: bigserial({ mode: "number" }).primaryKey(),
  seq: bigint({ mode: "number" }).notNull(),
  hash: text().notNull(),
  /** SHA-256 of the raw Ed25519 public key, first 16 hex digits: which key signed. */
  keyId: text().notNull(),
  publicKey: text().notNull(),
  /** Ed25519 over "consent-chain-head-v1\n<seq>\n<hash>\n<signedAt ISO>", base64. */
  signature: text().notNull(),
  signedAt: timestamp({ withTimezone: true }).notNull(),
});

/** Do-Not-Call: the federal registry numbers we imported and our own opt-outs (10 digits, NANP). */
export const dncNumbers = pgTable(
  "dnc_numbers",
  {
    phone: char({ length: 10 }).notNull(),
    source: text({ enum: ["federal", "internal"] }).notNull(),
    addedAt: createdAt(),
  },
  (table) => [uniqueIndex("dnc_numbers_phone_source").on(table.phone, table.source)],
);

/**
 * Answers of the FCC's Reassigned Numbers Database (decision 071), append-only: "was this number
 * permanently disconnected on or after `asked_date`?" (`yes`, `no`, `no_data`), from the query API
 * or a bulk results file. They are evidence on the consent certificate and the campaign gate reads
 * the newest one for a date on or after the consent.
 */
export const rndAnswers = pgTable(
  "rnd_answers",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    phone: char({ length: 10 }).notNull(),
    askedDate: date().notNull(),
    answer: text({ enum: ["yes", "no", "no_data"] }).notNull(),
    source: text({ enum: ["api", "file"] }).notNull(),
    /** The results file's name, for answers from a bulk upload. */
    fileName: text(),
    answeredAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("rnd_answers_phone_idx").on(table.phone, table.askedDate)],
);

/** One row per registry file imported: the data date drives the 31-day rule. */
export const dncImports = pgTable("dnc_imports", {
  id: bigserial({ mode: "number" }).primaryKey(),
  fileName: text().notNull(),
  sha256: text().notNull(),
  mode: text({ enum: ["add", "remove"] }).notNull(),
  dataDate: date().notNull(),
  lines: integer().notNull(),
  changed: integer().notNull(),
  badLines: integer().notNull(),
  importedAt: createdAt(),
});

/**
 * A registry file uploaded in the admin: its progress, read by the page while it imports, and its
 * outcome. The numbers are staged in dnc_upload_rows and applied in one transaction at the end,
 * so a failed or interrupted upload leaves the list as it was.
 */
export const dncUploads = pgTable("dnc_uploads", {
  id: bigserial({ mode: "number" }).primaryKey(),
  fileName: text().notNull(),
  mode: text({ enum: ["add", "remove"] }).notNull(),
  dataDate: date().notNull(),
  state: text({ enum: ["importing", "applying", "done", "failed"] }).notNull().default("importing"),
  bytesTotal: bigint({ mode: "number" }).notNull(),
  bytesRead: bigint({ mode: "number" }).notNull().default(0),
  lines: integer().notNull().default(0),
  changed: integer().notNull().default(0),
  badLines: integer().notNull().default(0),
  badLineSamples: jsonb().$type<{ line: number; text: string }[]>().notNull().default([]),
  sha256: text(),
  error: text(),
  actor: text().notNull(),
  startedAt: createdAt(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const dncUploadRows = pgTable(
  "dnc_upload_rows",
  {
    uploadId: bigint({ mode: "number" })
      .notNull()
      .references(() => dncUploads.id, { onDelete: "cascade" }),
    phone: char({ length: 10 }).notNull(),
  },
  (table) => [index("dnc_upload_rows_upload_idx").on(table.uploadId)],
);

export const contactMessages = pgTable(
  "contact_messages",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    name: text().notNull(),
    email: text().notNull(),
    phone: text(),
    subject: text().notNull(),
    message: text().notNull(),
    ip: text(),
    userAgent: text(),
    createdAt: createdAt(),
    /** When staff first saw it in the inbox; null: unread. */
    readAt: timestamp({ withTimezone: true }),
  },
  (table) => [index("contact_messages_unread_idx").on(table.id).where(sql`${table.readAt} IS NULL`)],
);

/** Fixed-window counters shared by every process through the database. */
export const rateLimits = pgTable("app_rate_limits", {
  key: text().primaryKey(),
  windowStartedAt: timestamp({ withTimezone: true }).notNull(),
  count: integer().notNull(),
});

export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    actor: text(),
    action: text().notNull(),
    entity: text().notNull(),
    before: text(),
    after: text(),
    occurredAt: createdAt(),
  },
  (table) => [index("audit_log_entity_idx").on(table.entity, table.occurredAt)],
);

/** E-mail outbox: verification and password-reset mails, sent by the worker with retries. */
export const emailMessages = pgTable(
  "email_messages",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    toAddress: text().notNull(),
    subject: text().notNull(),
    text: text().notNull(),
    kind: text({ enum: ["verify_email", "reset_password", "notice", "newsletter_confirm", "newsletter", "newsletter_test"] }).notNull(),
    /** HTML part (newsletters); `text` is always the plain-text part. */
    html: text(),
    /** Extra headers as JSON, e.g. List-Unsubscribe and List-Unsubscribe-Post. */
    headers: text(),
    status: text({ enum: ["queued", "sending", "sent", "failed"] }).notNull().default("queued"),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lockedAt: timestamp({ withTimezone: true }),
    error: text(),
    createdAt: createdAt(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (table) => [index("email_messages_due_idx").on(table.status, table.nextAttemptAt), index("email_messages_created_at_idx").on(table.createdAt)],
);

/**
 * Conversion postbacks to the ad network, one per opt-in that carried a click id, queued in the
 * opt-in's transaction and sent by their own worker. `dedupe_key` is also sent to the receiver
 * (Idempotency-Key and `{id}`), so a call repeated after a crash counts once there.
 */
export const conversionPostbacks = pgTable(
  "conversion_postbacks",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    subscriberId: uuid()
      .notNull()
      .references(() => subscribers.id),
    dedupeKey: text().notNull(),
    clickId: text().notNull(),
    event: text().notNull(),
    url: text().notNull(),
    /** `skipped`: recorded but never to be sent (never claimed by the worker); `skipReason` says why (decision 153). */
    status: text({ enum: ["queued", "sending", "sent", "failed", "skipped"] }).notNull().default("queued"),
    /** Why a postback was withheld: `gpc`, the browser sent Sec-GPC: 1 and the postback feeds an ad platform. */
    skipReason: text({ enum: ["gpc"] }),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lockedAt: timestamp({ withTimezone: true }),
    responseStatus: integer(),
    error: text(),
    occurredAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: createdAt(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    uniqueIndex("conversion_postbacks_dedupe_key").on(table.dedupeKey),
    index("conversion_postbacks_due_idx").on(table.status, table.nextAttemptAt),
    index("conversion_postbacks_subscriber_idx").on(table.subscriberId),
  ],
);

/** Newsletter confirmation links: single use, stored as a SHA-256 of the token, valid 7 days. */
export const newsletterConfirmations = pgTable(
  "newsletter_confirmations",
  {
    tokenSha256: text().primaryKey(),
    subscriberId: uuid()
      .notNull()
      .references(() => subscribers.id),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index("newsletter_confirmations_subscriber_idx").on(table.subscriberId)],
);

/** A newsletter issue: written in the admin, rendered once when it is sent. */
export const newsletterIssues = pgTable("newsletter_issues", {
  id: bigserial({ mode: "number" }).primaryKey(),
  subject: text().notNull(),
  previewText: text().notNull().default(""),
  introMarkdown: text().notNull().default(""),
  /** Article slugs of the digest, in order, comma separated. */
  articleSlugs: text().notNull().default(""),
  /** The send of this issue, once it is scheduled: status, ledger and results live there. */
  campaignId: uuid().references(() => campaigns.id),
  createdBy: text(),
  createdAt: createdAt(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Provider events (bounces, complaints) already applied, so a redelivered webhook changes nothing twice. */
export const emailEvents = pgTable(
  "email_events",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    provider: text().notNull(),
    eventId: text().notNull(),
    event: text().notNull(),
    email: text().notNull(),
    detail: text(),
    occurredAt: createdAt(),
  },
  (table) => [uniqueIndex("email_events_provider_event").on(table.provider, table.eventId)],
);

/**
 * A send to many people (an SMS market alert now, the e-mail newsletter later). The audience is
 * stored as its filters; the people are planned into `campaign_recipients` when it starts.
 */
export const campaigns = pgTable(
  "campaigns",
  {
    id: uuid().primaryKey().defaultRandom(),
    channel: text({ enum: ["sms", "email"] }).notNull(),
    name: text().notNull(),
    body: text().notNull(),
    /** The body as sent: every URL replaced by its short link (set when the campaign starts). */
    sendBody: text(),
    /** The audience filters (see app/services/sending/audience.server.ts). */
    audience: jsonb().notNull().default({}),
    status: text({ enum: ["draft", "scheduled", "sending", "paused", "completed", "cancelled"] }).notNull().default("draft"),
    scheduledAt: timestamp({ withTimezone: true }),
    /** The named time zone the admin scheduled in (shown back to them). */
    scheduleZone: text(),
    /** Messages not sent by then are dropped, not sent late (a market alert goes stale). */
    expiresAt: timestamp({ withTimezone: true }),
    segments: integer().notNull().default(1),
    pricePerSegment: numeric({ precision: 10, scale: 5 }).notNull().default("0.0083"),
    plannedCount: integer(),
    plannedAt: timestamp({ withTimezone: true }),
    startedAt: timestamp({ withTimezone: true }),
    finishedAt: timestamp({ withTimezone: true }),
    version: integer().notNull().default(1),
    createdBy: text(),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("campaigns_status_idx").on(table.status, table.scheduledAt)],
);

/**
 * What a ledger row is: a campaign's message, or a text sent to one person for a reason of their
 * own (decision 068). The kind fixes the row's priority.
 */
export const SEND_KINDS = ["campaign", "stop_confirmation", "help", "verification_code", "test", "welcome", "start_confirmation", "doi_request"] as const;

/**
 * The ledger of everything the send engine sends, and its outbox: one row per message, claimed
 * with FOR UPDATE SKIP LOCKED. A campaign has one row per person; a text of its own (welcome,
 * replies to STOP, HELP and START, double opt-in request, test, phone code) has no campaign, its
 * own `body` and a `dedupe_key`. `state` moves queued -> sending -> sent | failed | skipped |
 * cancelled; a row waiting for quiet hours is queued with a later `next_attempt_at`.
 */
export const campaignRecipients = pgTable(
  "campaign_recipients",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    /** Null for a text of its own (always SMS): it belongs to no campaign. */
    campaignId: uuid().references(() => campaigns.id, { onDelete: "cascade" }),
    /** Null only for texts with no subscriber behind them (a test text, a phone code). */
    subscriberId: uuid().references(() => subscribers.id),
    /** E.164 phone (SMS) or e-mail address, as planned. */
    address: text().notNull(),
    kind: text({ enum: SEND_KINDS }).notNull().default("campaign"),
    /**
     * Lower goes first when the sender's rate is short: replies to STOP and HELP, then codes and
     * test texts someone waits for, then welcomes and confirmations, then campaigns. Derived from
     * the kind by the database, so no writer can get it wrong.
     */
    priority: smallint()
      .notNull()
      .generatedAlwaysAs(
        sql`CASE WHEN kind IN ('stop_confirmation', 'help') THEN 0 WHEN kind IN ('verification_code', 'test') THEN 1 WHEN kind IN ('welcome', 'start_confirmation', 'doi_request') THEN 2 ELSE 3 END`,
      ),
    /** A text of its own; a campaign's rows send the campaign's `send_body`. */
    body: text(),
    /** Makes queueing a text of its own idempotent: one welcome per consent event, one reply per inbound message. */
    dedupeKey: text(),
    /**
     * The consent event this text answers or follows (the welcome or "Reply Y" request of an
     * opt-in, the reply to a STOP, HELP, START or Y), read by the certificate (decision 125). No
     * foreign key, as the chain's rows: a deleted event must not be hidden by a refused delete.
     */
    consentEventId: bigint("consent_event_id", { mode: "number" }),
    state: text({ enum: ["queued", "sending", "sent", "failed", "skipped", "cancelled"] }).notNull().default("queued"),
    /** Why a row was skipped, failed or is waiting (a stable code, see sending/reasons.ts). */
    reason: text(),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lockedAt: timestamp({ withTimezone: true }),
    providerId: text(),
    providerStatus: text(),
    error: text(),
    segments: integer(),
    sentAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("campaign_recipients_once").on(table.campaignId, table.subscriberId),
    // Partial, as the two below: planning a campaign writes no entry in them.
    uniqueIndex("campaign_recipients_dedupe_key").on(table.dedupeKey).where(sql`${table.dedupeKey} IS NOT NULL`),
    // The claim's texts of their own, highest priority first, then oldest due.
    index("campaign_recipients_texts_due_idx").on(table.priority, table.nextAttemptAt, table.id).where(sql`${table.campaignId} IS NULL AND ${table.state} = 'queued'`),
    // The Messages page lists texts of their own newest first; the staff home counts the last day's.
    index("campaign_recipients_texts_idx").on(table.id).where(sql`${table.campaignId} IS NULL`),
    index("campaign_recipients_texts_created_idx").on(table.createdAt).where(sql`${table.campaignId} IS NULL`),
    // The claim reads one campaign's due rows in its ORDER BY straight off this index, whatever the
    // planner's statistics say: right after planning 250,000 rows they are stale, and a plan that
    // sorted every queued row cost 55 ms per claim (docs/benchmarks.md). Also counts per state.
    index("campaign_recipients_campaign_due_idx").on(table.campaignId, table.state, table.nextAttemptAt, table.id),
    // Rows in flight are few: the in-doubt pass finds them without touching the queued ones, and
    // planning writes no entry here.
    index("campaign_recipients_in_flight_idx").on(table.lockedAt).where(sql`${table.state} = 'sending'`),
    // Partial: planning writes 250,000 rows with neither, and each index entry costs.
    index("campaign_recipients_subscriber_sent_idx").on(table.subscriberId, table.sentAt).where(sql`${table.sentAt} IS NOT NULL`),
    index("campaign_recipients_provider_idx").on(table.providerId).where(sql`${table.providerId} IS NOT NULL`),
    // Partial: a campaign's rows have none; the certificate finds an event's texts through it.
    index("campaign_recipients_consent_event_idx").on(table.consentEventId).where(sql`${table.consentEventId} IS NOT NULL`),
    index("campaign_recipients_updated_at_idx").on(table.updatedAt),
  ],
);

/** Token buckets shared by every process: together they keep a sender's rate (SMS_MPS). */
export const sendRateBuckets = pgTable("send_rate_buckets", {
  key: text().primaryKey(),
  tokens: doublePrecision().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** First-party short links (`/l/<code>`) in campaign messages. */
export const shortLinks = pgTable(
  "short_links",
  {
    code: text().primaryKey(),
    url: text().notNull(),
    campaignId: uuid().references(() => campaigns.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("short_links_campaign_url").on(table.campaignId, table.url)],
);

/** One row per request for a short link: people's clicks, and machines' fetches with their reason (decision 151). */
export const linkClicks = pgTable(
  "link_clicks",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    code: text()
      .notNull()
      .references(() => shortLinks.code, { onDelete: "cascade" }),
    campaignId: uuid(),
    /** A hash of IP and user agent, for unique clickers without storing either. */
    visitor: text().notNull(),
    /** Null for a person's click; otherwise why it was a machine (click-judge.ts). */
    machine: text(),
    clickedAt: createdAt(),
  },
  (table) => [index("link_clicks_campaign_idx").on(table.campaignId, table.visitor)],
);

/** What the log transport "sent": lets it answer the in-doubt lookup the way Twilio does. */
export const smsTransportLog = pgTable(
  "sms_transport_log",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    toPhone: text().notNull(),
    body: text().notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("sms_transport_log_to_idx").on(table.toPhone, table.createdAt)],
);

// ─── The editorial desk (issue 13; decision 048) ─────────────────────────────────────────────

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * The documents forms were served in, by SHA-256 (decision 079): one row per prerendered opt-in
 * template a build served, kept with the consent evidence (append-only, never pruned) so a
 * certificate can rebuild the page a person saw byte for byte.
 */
export const servedPages = pgTable("served_pages", {
  sha256: text().primaryKey(),
  body: bytea().notNull(),
  contentType: text().notNull(),
  firstServedAt: createdAt(),
});

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** Who writes: the byline, `/authors/<slug>` and its `Person` JSON-LD. */
export const authors = pgTable("authors", {
  id: uuid().primaryKey().defaultRandom(),
  slug: text().notNull().unique(),
  name: text().notNull(),
  /** Plain text, a few sentences. */
  bio: text().notNull().default(""),
  /** An image path (`/images/…` or `/media/…`), or null. */
  photo: text(),
  /** For example "CFA, 20 years covering fixed income". */
  credentials: text().notNull().default(""),
  /** [{ label, url }] shown on the author page and as `sameAs`. */
  links: jsonb().$type<{ label: string; url: string }[]>().notNull().default([]),
  /** The staff account that writes as this author, if any. */
  userId: text().references(() => user.id, { onDelete: "set null" }),
  createdAt: createdAt(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** The fields an editor writes; a revision keeps one copy of them. */
export type ArticleContent = {
  title: string;
  excerpt: string;
  /** Markdown. */
  body: string;
  category: string;
  /** `/images/…` (the six imported articles) or `/media/<asset id>` (an upload). */
  image: string;
  imageAlt: string;
  authorId: string;
  seoTitle: string | null;
  seoDescription: string | null;
  sponsored: boolean;
  sponsorName: string | null;
};

/**
 * One row per article. The columns hold the editor's working copy (autosaved); what readers see
 * is the revision `liveRevisionId` points to, while `status` is published (or scheduled and
 * `publishAt` has come). `firstPublishedAt` set means the slug was public once: unpublished, it
 * answers 410 instead of 404.
 */
export const articles = pgTable(
  "articles",
  {
    id: uuid().primaryKey().defaultRandom(),
    slug: text().notNull().unique(),
    status: text({ enum: ["draft", "scheduled", "published"] }).notNull().default("draft"),
    title: text().notNull(),
    excerpt: text().notNull().default(""),
    body: text().notNull().default(""),
    category: text().notNull(),
    image: text().notNull().default(""),
    imageAlt: text().notNull().default(""),
    authorId: uuid()
      .notNull()
      .references(() => authors.id),
    seoTitle: text(),
    seoDescription: text(),
    sponsored: boolean().notNull().default(false),
    sponsorName: text(),
    featured: boolean().notNull().default(false),
    /** The publication time readers see (datePublished); for a scheduled article, when it goes live. */
    publishAt: timestamp({ withTimezone: true }),
    firstPublishedAt: timestamp({ withTimezone: true }),
    /** When the live content last changed (dateModified). */
    contentUpdatedAt: timestamp({ withTimezone: true }),
    liveRevisionId: bigint({ mode: "number" }),
    /** Bumped by every save of the working copy: an autosave from a stale tab is refused. */
    version: integer().notNull().default(1),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedBy: text(),
  },
  (table) => [
    index("articles_status_publish_idx").on(table.status, table.publishAt),
    check("articles_sponsor_named", sql`NOT ${table.sponsored} OR coalesce(${table.sponsorName}, '') <> ''`),
  ],
);

/** Append-only copies of an article's content: every save, publish and restore adds one. */
export const articleRevisions = pgTable(
  "article_revisions",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    articleId: uuid()
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    content: jsonb().$type<ArticleContent>().notNull(),
    /** save, publish, schedule, update, restore, import */
    reason: text().notNull(),
    createdBy: text(),
    createdAt: createdAt(),
  },
  (table) => [index("article_revisions_article_idx").on(table.articleId, table.id)],
);

/**
 * One row per published article: what the lists, feeds, sitemap and search read, without the body
 * (decision 078). Derived from `articles` and the live revision by the trigger on `articles`
 * (migration 0019): left out of `db:export` and rebuilt by `db:import`. The body stays in the
 * revision and is read by the one page that shows it.
 */
export const publishedArticles = pgTable(
  "published_articles",
  {
    articleId: uuid()
      .primaryKey()
      .references(() => articles.id, { onDelete: "cascade" }),
    revisionId: bigint({ mode: "number" }).notNull(),
    slug: text().notNull(),
    featured: boolean().notNull(),
    publishAt: timestamp({ withTimezone: true }).notNull(),
    contentUpdatedAt: timestamp({ withTimezone: true }).notNull(),
    title: text().notNull(),
    excerpt: text().notNull(),
    category: text().notNull(),
    image: text().notNull(),
    imageAlt: text().notNull(),
    authorId: uuid().notNull(),
    seoTitle: text(),
    seoDescription: text(),
    sponsored: boolean().notNull(),
    sponsorName: text(),
    /** The body's words as `countWords` counts them (app/content/registry.ts), for the reading time. */
    wordCount: integer().notNull(),
    /** Site search (decision 074): title weighted above excerpt above body, stemmed for English. */
    search: tsvector().notNull(),
    /** Title and excerpt only, for ranking: small enough to stay inline (no TOAST read per match). */
    searchHead: tsvector().notNull(),
  },
  (table) => [index("published_articles_search_idx").using("gin", table.search), index("published_articles_publish_idx").on(table.publishAt, table.slug)],
);

/** An uploaded image; its resized files are in media_files. */
export const mediaAssets = pgTable("media_assets", {
  id: uuid().primaryKey().defaultRandom(),
  originalName: text().notNull(),
  /** The alt text given at upload (required), offered again when the image is reused. */
  alt: text().notNull(),
  width: integer().notNull(),
  height: integer().notNull(),
  createdBy: text(),
  createdAt: createdAt(),
});

/**
 * The resized files, in the database so that every process (and db:export) has them; served
 * from a memory cache with immutable caching.
 */
export const mediaFiles = pgTable(
  "media_files",
  {
    assetId: uuid()
      .notNull()
      .references(() => mediaAssets.id, { onDelete: "cascade" }),
    format: text({ enum: ["avif", "webp", "jpeg"] }).notNull(),
    width: integer().notNull(),
    height: integer().notNull(),
    bytes: bytea().notNull(),
  },
  (table) => [primaryKey({ columns: [table.assetId, table.format, table.width] })],
);

/**
 * Page views counted on the server (issue 34, decision 141), one row per local day (ANALYTICS_TIME_ZONE),
 * dimension and value: its size grows with days × paths × sources, not with views. `dimension`
 * is one of ANALYTICS_DIMENSIONS (app/services/analytics/rollups.ts); `all` has the value "".
 * `visitors` (daily unique visitors) is kept for `all` and `path` only. Every process adds its
 * counts with one upsert per flush, so processes sharing PostgreSQL add up.
 */
export const analyticsDaily = pgTable(
  "analytics_daily",
  {
    day: date({ mode: "string" }).notNull(),
    dimension: text().notNull(),
    value: text().notNull(),
    views: bigint({ mode: "number" }).notNull().default(0),
    visitors: bigint({ mode: "number" }).notNull().default(0),
  },
  // Dimension first: a report reads one dimension over a range of days.
  (table) => [primaryKey({ columns: [table.dimension, table.day, table.value] })],
);

/** The same counts by local hour (`hour`: the instant it began), kept for the last 48 hours. */
export const analyticsHourly = pgTable(
  "analytics_hourly",
  {
    hour: timestamp({ withTimezone: true }).notNull(),
    dimension: text().notNull(),
    value: text().notNull(),
    views: bigint({ mode: "number" }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.hour, table.dimension, table.value] })],
);

/**
 * The day's visitor hashes (HMAC of network, browser and site under the day's salt), per path and
 * for the whole site (path ""), so a visitor is counted once whichever process saw them. Deleted
 * with the day's salt after 48 hours; never exported (app/db/transfer.server.ts).
 */
export const analyticsVisitors = pgTable(
  "analytics_visitors",
  {
    day: date({ mode: "string" }).notNull(),
    path: text().notNull(),
    visitor: bytea().notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.path, table.visitor] })],
);

/**
 * The random key of each local day's visitor hashes, created by the first process that needs it
 * (insert-if-absent) and shared by all; deleted after 48 hours and never exported, so a hash of an
 * older day cannot be recomputed from an address.
 */
export const analyticsSalts = pgTable("analytics_salts", {
  day: date({ mode: "string" }).primaryKey(),
  salt: bytea().notNull(),
  createdAt: createdAt(),
});

/** The flushes written, by id, for two days: a flush whose answer was lost is found here and not counted twice. */
export const analyticsFlushes = pgTable("analytics_flushes", {
  id: uuid().primaryKey(),
  flushedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Human page views per minute and path, for "the last 30 minutes" on /admin/analytics (decision
 * 156): written in the same flush as the other rollups, summed across processes by the upsert,
 * deleted after two hours and never exported.
 */
export const analyticsMinutes = pgTable(
  "analytics_minutes",
  {
    minute: timestamp({ withTimezone: true }).notNull(),
    path: text().notNull(),
    views: bigint({ mode: "number" }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.minute, table.path] })],
);

/**
 * The day's visitor hashes (as in analytics_visitors) by the minute they were seen, without the
 * path, so the visitors of the last 30 minutes are counted once across minutes and processes.
 * Deleted after two hours and never exported (decision 156).
 */
export const analyticsMinuteVisitors = pgTable(
  "analytics_minute_visitors",
  {
    minute: timestamp({ withTimezone: true }).notNull(),
    visitor: bytea().notNull(),
  },
  (table) => [primaryKey({ columns: [table.minute, table.visitor] })],
);

/**
 * Each visitor's entry of the day (decision 149): the first view from outside the site, with its
 * landing parameters, keyed by the day's visitor hash. A subscription made later that day (or
 * the next) finds its visit here by computing the same hash. Deleted with the day's salt after 48
 * hours and never exported, like the hashes themselves.
 */
export const analyticsVisitEntries = pgTable(
  "analytics_visit_entries",
  {
    day: date({ mode: "string" }).notNull(),
    visitor: bytea().notNull(),
    at: timestamp({ withTimezone: true }).notNull(),
    path: text().notNull(),
    channel: text().notNull(),
    referrer: text().notNull().default(""),
    source: text().notNull().default(""),
    medium: text().notNull().default(""),
    campaign: text().notNull().default(""),
    /** The click-id parameters present, comma-separated (never their values). */
    clickIds: text().notNull().default(""),
    sub1: text().notNull().default(""),
    sub2: text().notNull().default(""),
    sub3: text().notNull().default(""),
    sub4: text().notNull().default(""),
    sub5: text().notNull().default(""),
  },
  (table) => [primaryKey({ columns: [table.day, table.visitor] })],
);

/**
 * Clicks on the sponsor's offer (`/go/offer`, decision 152), one row per local day and source:
 * channel, `utm_*`, sub-ids of the visit, and `machine` ("" for people, else the reason of
 * click-judge.ts). Grows with days × sources, not clicks; added to by one upsert per click.
 */
export const offerClicks = pgTable(
  "offer_clicks",
  {
    day: date({ mode: "string" }).notNull(),
    channel: text().notNull(),
    utmSource: text().notNull().default(""),
    utmMedium: text().notNull().default(""),
    utmCampaign: text().notNull().default(""),
    sub1: text().notNull().default(""),
    sub2: text().notNull().default(""),
    sub3: text().notNull().default(""),
    sub4: text().notNull().default(""),
    sub5: text().notNull().default(""),
    machine: text().notNull().default(""),
    clicks: bigint({ mode: "number" }).notNull().default(0),
  },
  (table) => [
    primaryKey({
      name: "offer_clicks_pk",
      columns: [table.day, table.channel, table.utmSource, table.utmMedium, table.utmCampaign, table.sub1, table.sub2, table.sub3, table.sub4, table.sub5, table.machine],
    }),
  ],
);

/**
 * Where each subscription came from (decisions 149, 150): one row per sign-up (a new subscriber,
 * or an ended subscription started again), written in the same transaction as its consent event.
 * `basis`: `form` when the form's own page carried the landing parameters, `visit` when the
 * visitor's entry of the day was found, `none` when neither (channel `unknown`).
 */
export const subscriptionAttributions = pgTable(
  "subscription_attributions",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    subscriberId: uuid()
      .notNull()
      .references(() => subscribers.id),
    consentEventId: bigint({ mode: "number" })
      .notNull()
      .references(() => consentEvents.id),
    /** The subscription's channel, as on subscribers: sms or email. */
    channel: text({ enum: ["sms", "email"] }).notNull(),
    basis: text({ enum: ["form", "visit", "none"] }).notNull(),
    /** The path of the page that held the form ("" when unknown: the JSON API without a Referer). */
    formPath: text().notNull().default(""),
    /** The path the visit entered by ("" when unknown). */
    entryPath: text().notNull().default(""),
    entryAt: timestamp({ withTimezone: true }),
    visitChannel: text().notNull(),
    referrer: text().notNull().default(""),
    utmSource: text().notNull().default(""),
    utmMedium: text().notNull().default(""),
    utmCampaign: text().notNull().default(""),
    clickIds: text().notNull().default(""),
    sub1: text().notNull().default(""),
    sub2: text().notNull().default(""),
    sub3: text().notNull().default(""),
    sub4: text().notNull().default(""),
    sub5: text().notNull().default(""),
    /** The sign-up's request carried Sec-GPC: 1 (Global Privacy Control): no postback to an ad platform (decision 153). */
    gpc: boolean().notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("subscription_attributions_consent_event").on(table.consentEventId),
    index("subscription_attributions_subscriber_idx").on(table.subscriberId),
    index("subscription_attributions_created_at_idx").on(table.createdAt),
  ],
);

/**
 * What was paid for traffic to the ad landing page, per local day and source, optionally split by
 * campaign and sub-id ("" where not split), in whole cents (decision 155). Entered on
 * /admin/analytics/costs or imported from CSV; every change is in the audit log.
 */
export const adCosts = pgTable(
  "ad_costs",
  {
    day: date().notNull(),
    source: text().notNull(),
    campaign: text().notNull().default(""),
    subId: text().notNull().default(""),
    amountCents: bigint({ mode: "number" }).notNull(),
    updatedBy: text(),
    updatedAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.day, table.source, table.campaign, table.subId] }), check("ad_costs_amount_cents_check", sql`${table.amountCents} >= 0`)],
);

// ─── Moving a publication in (issue 35; decisions 158, 159, 160) ────────────────────────────────

/** What a dry run found, without its report lines (those are rows of import_report_lines). */
export type DryRunSummary = {
  site: { title: string; link: string };
  articles: { published: number; scheduled: number; draft: number };
  authors: { login: string; email: string; displayName: string; posts: number }[];
  categories: { slug: string; name: string; posts: number }[];
  featuredImages: { found: number; missing: number };
  imagesInBodies: number;
  seo: { titles: number; descriptions: number };
  oldUrls: number;
  lines: number;
};

/**
 * One import of a WordPress or Ghost export: the file kept on disk until it is done, the
 * operator's category mapping, where the job stands, and its counts (decision 159). A run is
 * claimed by one process at a time (a lease it renews); after a crash the next claim goes on
 * from `itemsDone`, and each item is written in one transaction with that counter, so nothing is
 * written twice.
 */
export const importRuns = pgTable(
  "import_runs",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    kind: text({ enum: ["wordpress", "ghost"] }).notNull(),
    /** The file as given (kept under DATA_DIR/imports for an upload) and its name for people. */
    filePath: text().notNull(),
    fileName: text().notNull(),
    fileBytes: bigint({ mode: "number" }).notNull(),
    /** The old site's address, as the export names it: the items' `source`. */
    siteUrl: text().notNull().default(""),
    /**
     * The operator's choices: the category mapping (old slug → ours) and the category for the rest,
     * whether desk edits are overwritten, a local copy of the old site's uploads (a folder or a .zip), and the old site's
     * address where the export does not say it (Ghost).
     */
    options: jsonb().$type<{ categories: Record<string, string>; defaultCategory: string; overwriteEdited: boolean; uploadsPath?: string; /** Runs stored before the uploads could be a .zip. */ uploadsFolder?: string; oldSiteUrl?: string }>().notNull(),
    /**
     * uploaded (its dry run waits) → reviewing (the operator confirms the mapping) → queued →
     * running → done or failed; a command's run starts at running. `cancelled` before it ran.
     */
    status: text({ enum: ["uploaded", "reviewing", "queued", "running", "done", "failed", "cancelled"] }).notNull().default("queued"),
    /** The dry run's findings (counts, authors, categories to map), kept for the review page. */
    dryRun: jsonb().$type<DryRunSummary>(),
    /** Importable posts, counted when the run starts; the progress bar is itemsDone of itemsTotal. */
    itemsTotal: integer().notNull().default(0),
    itemsDone: integer().notNull().default(0),
    created: integer().notNull().default(0),
    updated: integer().notNull().default(0),
    unchanged: integer().notNull().default(0),
    /** Articles edited in the desk since they were imported, left as they are. */
    keptEdited: integer().notNull().default(0),
    skipped: integer().notNull().default(0),
    error: text(),
    leaseOwner: text(),
    leaseUntil: timestamp({ withTimezone: true }),
    createdBy: text(),
    createdAt: createdAt(),
    startedAt: timestamp({ withTimezone: true }),
    finishedAt: timestamp({ withTimezone: true }),
  },
  (table) => [index("import_runs_status_idx").on(table.status, table.id)],
);

/**
 * Every item an import brought in, by its source and its id there: what makes a second run of the
 * same file (or a newer export) update instead of duplicating, and what tells a desk edit apart.
 */
export const importItems = pgTable(
  "import_items",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    /** "wordpress:<site address>" or "ghost:<site address>". */
    source: text().notNull(),
    kind: text({ enum: ["article", "author", "image"] }).notNull(),
    sourceId: text().notNull(),
    /** The article’s, author’s or stored image’s id here. */
    targetId: uuid().notNull(),
    /** The item's address on the old site (articles). */
    oldUrl: text().notNull().default(""),
    /** SHA-256 of what the import wrote: the same again is "unchanged". */
    contentHash: text().notNull(),
    /** The article's version right after the import wrote it: a higher one is a desk edit. */
    writtenVersion: integer(),
    runId: bigint({ mode: "number" }).notNull(),
    updatedAt: createdAt(),
  },
  (table) => [uniqueIndex("import_items_source_key").on(table.source, table.kind, table.sourceId), index("import_items_target_idx").on(table.targetId)],
);

/** What one run skipped, converted with loss or could not do (the report, also as CSV). */
export const importReportLines = pgTable(
  "import_report_lines",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    runId: bigint({ mode: "number" })
      .notNull()
      .references(() => importRuns.id, { onDelete: "cascade" }),
    /** "dry-run" lines say what the import would do; "import" lines what it did. */
    phase: text({ enum: ["dry-run", "import"] }).notNull().default("import"),
    item: text().notNull(),
    oldUrl: text().notNull().default(""),
    outcome: text().notNull(),
    reason: text().notNull(),
  },
  (table) => [index("import_report_lines_run_idx").on(table.runId, table.phase, table.id)],
);

/**
 * Old addresses answering 301 (decision 160): the old site's permalinks, archives and feeds after
 * an import, or any an editor adds. `path` is the old path with its query string where it matters
 * (`/?p=123`), without a trailing slash; `target` a path of this site. Served from memory.
 */
export const redirects = pgTable("redirects", {
  path: text().primaryKey(),
  target: text().notNull(),
  /** "import:<run id>" or "admin". */
  origin: text().notNull(),
  updatedBy: text(),
  updatedAt: createdAt(),
});
