import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { keysetCsvStream } from "../admin/csv-export.server";
import { clickCounts, type ClickCounts } from "./links.server";
import { reasonLabel } from "./reasons";
import { CURRENT_RATE_WINDOW_SECONDS, sendRates, type SendRates } from "./send-rate";

type Executor = Pick<Db, "execute">;

export const OPT_OUT_WINDOW_DAYS = 7;

export type CampaignResults = {
  planned: number;
  queued: number;
  waiting: number;
  sending: number;
  sent: number;
  delivered: number;
  failed: number;
  skipped: number;
  cancelled: number;
  failedReasons: { reason: string; label: string; count: number }[];
  skippedReasons: { reason: string; label: string; count: number }[];
  optOuts: number;
  clicks: number;
  uniqueClickers: number;
  machineFetches: number;
  machineReasons: ClickCounts["machineReasons"];
  segmentsSent: number;
  cost: number;
  /** Messages per second over the last few seconds, and over the whole send (send-rate.ts). */
  rate: SendRates;
};

/**
 * A campaign's results, aggregated from its ledger, the provider's callbacks, the consent log and
 * the click log: nothing is counted in memory, so every process shows the same numbers.
 */
export async function campaignResults(db: Executor, campaignId: string, pricePerSegment: number, now = new Date()): Promise<CampaignResults> {
  // Sends are stamped with the engine's clock (engine.server.ts), so the window is measured on it too.
  const windowStart = new Date(now.getTime() - CURRENT_RATE_WINDOW_SECONDS * 1000).toISOString();
  const [states, reasons, optOuts, clicks] = await Promise.all([
    db.execute<Record<string, number | string | Date | null>>(sql`
      SELECT count(*)::int AS planned,
        count(*) FILTER (WHERE state = 'queued' AND reason IS DISTINCT FROM 'quiet_hours')::int AS queued,
        count(*) FILTER (WHERE state = 'queued' AND reason = 'quiet_hours')::int AS waiting,
        count(*) FILTER (WHERE state = 'sending')::int AS sending,
        count(*) FILTER (WHERE state = 'sent')::int AS sent,
        count(*) FILTER (WHERE state = 'sent' AND provider_status = 'delivered')::int AS delivered,
        count(*) FILTER (WHERE state = 'failed' OR (state = 'sent' AND provider_status IN ('undelivered', 'failed')))::int AS failed,
        count(*) FILTER (WHERE state = 'skipped')::int AS skipped,
        count(*) FILTER (WHERE state = 'cancelled')::int AS cancelled,
        coalesce(sum(segments) FILTER (WHERE state = 'sent'), 0)::int AS segments,
        count(*) FILTER (WHERE state = 'sent' AND sent_at > ${windowStart}::timestamptz AND sent_at <= ${now.toISOString()}::timestamptz)::int AS in_window,
        max(sent_at) FILTER (WHERE state = 'sent') AS last_sent_at,
        (SELECT started_at FROM campaigns WHERE id = ${campaignId}) AS started_at
      FROM campaign_recipients WHERE campaign_id = ${campaignId}`),
    db.execute<{ state: string; reason: string | null; count: number | string }>(sql`
      SELECT CASE WHEN state = 'sent' THEN 'failed' ELSE state END AS state,
        coalesce(reason, CASE WHEN state = 'sent' THEN 'undelivered' END, 'provider_error') AS reason, count(*)::int AS count
      FROM campaign_recipients
      WHERE campaign_id = ${campaignId} AND (state IN ('failed', 'skipped') OR (state = 'sent' AND provider_status IN ('undelivered', 'failed')))
      GROUP BY 1, 2 ORDER BY 3 DESC`),
    // An opt-out counts for the latest campaign text the person got before it, within 7 days.
    db.execute<{ count: number | string }>(sql`
      SELECT count(DISTINCT r.subscriber_id)::int AS count
      FROM campaign_recipients r
      JOIN consent_events e ON e.subscriber_id = r.subscriber_id AND e.action = 'opt_out'
        AND e.occurred_at >= r.sent_at AND e.occurred_at < r.sent_at + make_interval(days => ${OPT_OUT_WINDOW_DAYS})
      WHERE r.campaign_id = ${campaignId} AND r.state = 'sent'
        AND NOT EXISTS (SELECT 1 FROM campaign_recipients later
          WHERE later.subscriber_id = r.subscriber_id AND later.state = 'sent' AND later.sent_at > r.sent_at AND later.sent_at <= e.occurred_at)`),
    clickCounts(db, campaignId),
  ]);
  const row = states.rows[0] ?? {};
  const n = (key: string) => Number(row[key] ?? 0);
  const time = (key: string) => (row[key] == null ? null : new Date(row[key] as string | Date));
  const grouped = (state: string) =>
    reasons.rows.filter((r) => r.state === state).map((r) => ({ reason: String(r.reason), label: r.reason === "undelivered" ? "Not delivered by the carrier" : reasonLabel(r.reason), count: Number(r.count) }));
  return {
    planned: n("planned"),
    queued: n("queued"),
    waiting: n("waiting"),
    sending: n("sending"),
    sent: n("sent"),
    delivered: n("delivered"),
    failed: n("failed"),
    skipped: n("skipped"),
    cancelled: n("cancelled"),
    failedReasons: grouped("failed"),
    skippedReasons: grouped("skipped"),
    optOuts: Number(optOuts.rows[0]?.count ?? 0),
    ...clicks,
    segmentsSent: n("segments"),
    cost: Math.round(n("segments") * pricePerSegment * 100) / 100,
    rate: sendRates({ now, startedAt: time("started_at"), lastSentAt: time("last_sent_at"), sent: n("sent"), sentInWindow: n("in_window") }),
  };
}

const CSV_COLUMNS = ["phone", "state", "reason", "error", "attempts", "provider_status", "sent_at"] as const;
const BATCH = 2000;

/** The per-recipient outcome as CSV, in ledger order (formula-safe fields). */
export function campaignCsvStream(db: Executor, campaignId: string): ReadableStream<Uint8Array> {
  return keysetCsvStream<Record<string, unknown>, number>({
    columns: CSV_COLUMNS,
    page: async (after) =>
      (
        await db.execute<Record<string, unknown>>(sql`
          SELECT id, address AS phone, state, reason, error, attempts, provider_status, sent_at
          FROM campaign_recipients WHERE campaign_id = ${campaignId} AND id > ${after ?? 0} ORDER BY id LIMIT ${BATCH}`)
      ).rows,
    fields: (row) =>
      CSV_COLUMNS.map((column) => (column === "reason" ? reasonLabel(row.reason as string | null) : column === "sent_at" && row.sent_at ? new Date(String(row.sent_at)) : row[column])),
    cursorOf: (row) => Number(row.id),
  });
}
