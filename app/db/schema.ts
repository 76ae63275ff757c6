import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  char,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

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
    status: text({ enum: ["active", "opted_out", "refused_dnc", "unsubscribed"] }).notNull(),
    source: text({ enum: ["opt-in", "newsletter", "sms-keyword"] }).notNull(),
    clickId: text(),
    utmSource: text(),
    utmMedium: text(),
    utmCampaign: text(),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("subscribers_sms_phone_unique").on(table.phoneE164).where(sql`${table.channel} = 'sms'`),
    uniqueIndex("subscribers_email_unique").on(table.email).where(sql`${table.channel} = 'email'`),
    index("subscribers_created_at_idx").on(table.createdAt),
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
      enum: ["opt_in", "opt_out", "start", "help", "refused_dnc", "email_subscribe"],
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
    occurredAt: createdAt(),
  },
  (table) => [
    index("consent_events_subscriber_idx").on(table.subscriberId, table.occurredAt),
    uniqueIndex("consent_events_inbound_sid").on(table.inboundMessageSid),
  ],
);

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

/** The SMS outbox and log. */
export const smsMessages = pgTable(
  "sms_messages",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    toPhone: text().notNull(),
    body: text().notNull(),
    kind: text({ enum: ["welcome", "help", "stop_confirmation", "start_confirmation", "test"] }).notNull(),
    status: text({ enum: ["queued", "sending", "sent", "failed", "cancelled"] }).notNull().default("queued"),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lockedAt: timestamp({ withTimezone: true }),
    providerId: text(),
    providerStatus: text(),
    error: text(),
    /** Makes enqueueing idempotent: one welcome per consent event, one reply per inbound message. */
    dedupeKey: text().notNull(),
    subscriberId: uuid().references(() => subscribers.id),
    createdAt: createdAt(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    uniqueIndex("sms_messages_dedupe_key").on(table.dedupeKey),
    index("sms_messages_due_idx").on(table.status, table.nextAttemptAt),
  ],
);

export const contactMessages = pgTable("contact_messages", {
  id: bigserial({ mode: "number" }).primaryKey(),
  name: text().notNull(),
  email: text().notNull(),
  phone: text(),
  subject: text().notNull(),
  message: text().notNull(),
  ip: text(),
  userAgent: text(),
  createdAt: createdAt(),
});

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
    kind: text({ enum: ["verify_email", "reset_password", "notice"] }).notNull(),
    status: text({ enum: ["queued", "sending", "sent", "failed"] }).notNull().default("queued"),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lockedAt: timestamp({ withTimezone: true }),
    error: text(),
    createdAt: createdAt(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (table) => [index("email_messages_due_idx").on(table.status, table.nextAttemptAt)],
);
