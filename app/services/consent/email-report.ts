import { z } from "zod";

/**
 * What the mail provider (or the receiving server) reported about an address: a hard bounce, a
 * spam complaint, an unsubscribe at the provider (decision 125). Kept in the consent event's
 * `inbound_body` as JSON, so the report is sealed in the chain with the event; the certificate
 * reads it back from there.
 */
export type EmailReport = {
  /** `mailgun` (its event webhook) or `smtp` (the receiving server refused a copy as it was sent). */
  provider: string;
  /** The provider's own id of the event (Mailgun's `id`), null for a refusal at sending. */
  eventId: string | null;
  /** The provider's event: `failed`, `complained`, `unsubscribed`; `rejected` for a refusal at sending. */
  event: string;
  severity: string | null;
  /** When the provider says it happened (Mailgun's `timestamp`), ISO; null when it did not say. */
  at: string | null;
  reason: string | null;
  /** The receiving server's answer: SMTP code, message and the provider's description of it. */
  code: number | null;
  message: string | null;
  description: string | null;
  /** The Message-ID of the copy the report is about, when the provider gave it. */
  messageId: string | null;
};

const cut = (value: string | undefined | null, length: number) =>
  value === undefined || value === null ? null : value.slice(0, length);

/** The report as stored: JSON, each free text bounded so one row stays small. */
export function emailReportBody(report: EmailReport) {
  return JSON.stringify({
    ...report,
    eventId: cut(report.eventId, 200),
    event: report.event.slice(0, 50),
    severity: cut(report.severity, 50),
    reason: cut(report.reason, 200),
    message: cut(report.message, 500),
    description: cut(report.description, 500),
    messageId: cut(report.messageId, 300),
  });
}

const StoredReport = z.object({
  provider: z.string(),
  eventId: z.string().nullable(),
  event: z.string(),
  severity: z.string().nullable(),
  at: z.string().nullable(),
  reason: z.string().nullable(),
  code: z.number().nullable(),
  message: z.string().nullable(),
  description: z.string().nullable(),
  messageId: z.string().nullable(),
});

const EMPTY = { severity: null, at: null, reason: null, code: null, message: null, description: null, messageId: null };

/** The provider event a legacy row's action stood for (before reports were kept whole). */
const LEGACY_EVENT: Record<string, string> = {
  email_bounce: "failed",
  email_complaint: "complained",
  email_unsubscribe: "unsubscribed",
};

/**
 * The report a newsletter event carries, or null for events that are not a provider's report.
 * Rows recorded before the report was kept as JSON hold only Mailgun's event id (or, for a
 * refusal at sending, the server's answer): they are read as what they are.
 */
export function parseEmailReport(event: {
  channel: string;
  action: string;
  source: string | null;
  inboundBody: string | null;
}): EmailReport | null {
  if (event.channel !== "email" || (event.source !== "mailgun" && event.source !== "smtp")) return null;
  const body = event.inboundBody ?? "";
  if (body.startsWith("{")) {
    try {
      const parsed = StoredReport.safeParse(JSON.parse(body));
      if (parsed.success) return parsed.data;
    } catch {
      // Not JSON after all: read as a legacy row below.
    }
  }
  if (event.source === "smtp")
    return { provider: "smtp", eventId: null, event: "rejected", ...EMPTY, message: body || null };
  return { provider: "mailgun", eventId: body || null, event: LEGACY_EVENT[event.action] ?? event.action, ...EMPTY };
}
