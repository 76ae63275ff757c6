import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { auditLog, campaigns } from "~/db/schema";
import { backoffSeconds, startJobLoop, type JobLogger, type JobLoop } from "../job-loop.server";
import { AudienceSchema, planRecipients } from "./audience.server";
import type { SendResult } from "../providers/sms-transport.server";
import { CampaignHeld, type ChannelDecision, type ClaimedRecipient, type SendChannel } from "./channel";
import { renderLinks } from "./links.server";
import { returnTokens, takeTokens, burstFor } from "./rate-bucket.server";
import { reasonLabel } from "./reasons";
import { sendSignals } from "./signal.server";

export const MAX_SEND_ATTEMPTS = 8;
/** An alert not sent within this long after it started is stale and dropped. */
export const DEFAULT_TTL_HOURS = 24;

type Row = Record<string, unknown>;

export type EngineOptions = {
  db: Db;
  channel: SendChannel;
  logger: JobLogger;
  siteUrl: string;
  dncPolicy: "refuse" | "allow_with_consent";
  /** A row left `sending` this long is in doubt (its process died): ask the provider. */
  inDoubtAfterSeconds?: number;
  /** Injected in tests; the rate bucket and in-doubt timing always use the database's clock. */
  clock?: () => Date;
};

const toDate = (value: unknown) => (value instanceof Date ? value : value === null || value === undefined ? null : new Date(String(value)));

function claimedFrom(row: Row): ClaimedRecipient {
  return {
    id: Number(row.id),
    campaignId: row.campaign_id === null || row.campaign_id === undefined ? null : String(row.campaign_id),
    subscriberId: row.subscriber_id === null || row.subscriber_id === undefined ? null : String(row.subscriber_id),
    kind: (row.kind as ClaimedRecipient["kind"] | undefined) ?? "campaign",
    address: String(row.address),
    attempts: Number(row.attempts),
    body: String(row.body ?? ""),
    expiresAt: toDate(row.expires_at),
    lockedAt: toDate(row.locked_at) ?? new Date(),
  };
}

/** Held campaigns already logged by this process: a hold is said once, not on every pass. */
const heldReported = new Set<string>();

/** A campaign its channel holds stays scheduled (not started) and is tried again on later passes. */
function heldOrThrow(error: unknown, id: string, logger: JobLogger): false {
  if (!(error instanceof CampaignHeld)) throw error;
  if (!heldReported.has(`${id}:${error.reason}`)) {
    heldReported.add(`${id}:${error.reason}`);
    logger.warn({ campaignId: id, reason: error.reason }, error.message);
  }
  return false;
}

/**
 * Starts the campaigns whose time has come: renders the short links and plans the ledger in one
 * transaction, under a row lock that a second process skips, so a campaign is planned once.
 */
export async function startDueCampaigns(options: Pick<EngineOptions, "db" | "siteUrl" | "dncPolicy" | "logger" | "channel">, now: Date) {
  const { db, channel: sender } = options;
  // Each channel's sender starts its own campaigns (the message is prepared the channel's way).
  const due = await db.execute<{ id: string }>(sql`
    SELECT id FROM campaigns WHERE status = 'scheduled' AND channel = ${sender.name} AND scheduled_at <= ${now.toISOString()}::timestamptz ORDER BY scheduled_at LIMIT 5`);
  let started = 0;
  for (const { id } of due.rows) {
    const ok = await db.transaction(async (tx) => {
      const locked = await tx.execute<Row>(sql`SELECT id, channel, body, audience, expires_at FROM campaigns WHERE id = ${id} AND status = 'scheduled' FOR UPDATE SKIP LOCKED`);
      const campaign = locked.rows[0];
      if (!campaign) return false;
      const audience = AudienceSchema.parse(typeof campaign.audience === "string" ? JSON.parse(campaign.audience) : campaign.audience);
      const channel = campaign.channel as "sms" | "email";
      const sendBody = sender.prepare
        ? await sender.prepare(tx, { id, body: String(campaign.body) })
        : await renderLinks(tx, id, String(campaign.body), options.siteUrl);
      const planned = await planRecipients(tx, { id, channel, audience }, options.dncPolicy, now);
      const expiresAt = toDate(campaign.expires_at) ?? new Date(now.getTime() + DEFAULT_TTL_HOURS * 3_600_000);
      await tx
        .update(campaigns)
        .set({ status: "sending", sendBody, plannedCount: planned, plannedAt: now, startedAt: now, expiresAt, updatedAt: now })
        .where(sql`id = ${id}`);
      await tx.insert(auditLog).values({ actor: "system", action: "campaign.started", entity: `campaign:${id}`, after: JSON.stringify({ planned }) });
      return true;
    }).catch((error: unknown) => heldOrThrow(error, id, options.logger));
    if (ok) {
      started++;
      options.logger.info({ campaignId: id }, "campaign started");
    }
  }
  return started;
}

/**
 * Claims due rows, highest priority first, then earliest due: the SMS sender's texts of their own
 * (replies to STOP and HELP 0, codes and tests 1, welcomes and confirmations 2; decision 068) and
 * the rows of running campaigns (3). A row another process holds is skipped, never shared. Every
 * part reads its rows in index order, so no plan ever sorts a queue: the texts off
 * campaign_recipients_texts_due_idx, each campaign's rows off campaign_recipients_campaign_due_idx
 * (per campaign, LATERAL), and only the few candidates (at most `limit` per part) are sorted.
 */
async function claimDue(db: Db, channel: SendChannel["name"], limit: number, now: Date) {
  const at = now.toISOString();
  // Texts of their own are SMS: the e-mail sender has none.
  const texts =
    channel === "sms"
      ? sql`SELECT t.id, t.priority, t.next_attempt_at FROM (
          SELECT r.id, r.priority, r.next_attempt_at FROM campaign_recipients r
          WHERE r.campaign_id IS NULL AND r.state = 'queued' AND r.next_attempt_at <= ${at}::timestamptz
          ORDER BY r.priority, r.next_attempt_at, r.id
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED
        ) t UNION ALL `
      : sql``;
  const result = await db.execute<Row>(sql`
    WITH due AS (
      SELECT x.id FROM (
        ${texts}SELECT d.id, 3::smallint AS priority, d.next_attempt_at FROM campaigns c CROSS JOIN LATERAL (
          SELECT r.id, r.next_attempt_at FROM campaign_recipients r
          WHERE r.campaign_id = c.id AND r.state = 'queued' AND r.next_attempt_at <= ${at}::timestamptz
          ORDER BY r.next_attempt_at, r.id
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED
        ) d
        WHERE c.status = 'sending' AND c.channel = ${channel}
      ) x
      ORDER BY x.priority, x.next_attempt_at, x.id
      LIMIT ${limit}
    )
    UPDATE campaign_recipients r SET state = 'sending', locked_at = clock_timestamp(), attempts = r.attempts + 1, updated_at = clock_timestamp()
    FROM due WHERE r.id = due.id
    RETURNING r.id, r.campaign_id, r.subscriber_id, r.kind, r.address, r.attempts, r.locked_at,
      COALESCE(r.body, (SELECT c.send_body FROM campaigns c WHERE c.id = r.campaign_id)) AS body,
      (SELECT c.expires_at FROM campaigns c WHERE c.id = r.campaign_id) AS expires_at`);
  return result.rows.map(claimedFrom).sort((a, b) => PRIORITY[a.kind] - PRIORITY[b.kind] || a.id - b.id);
}

/** The database's `priority` column, for ordering a claimed batch's sends (schema.ts). */
const PRIORITY: Record<ClaimedRecipient["kind"], number> = {
  stop_confirmation: 0,
  help: 0,
  verification_code: 1,
  test: 1,
  welcome: 2,
  start_confirmation: 2,
  doi_request: 2,
  campaign: 3,
};

/**
 * Rows left `sending` longer than the threshold belong to a process that died (or lost the
 * database) between claiming and recording the answer: the provider may or may not have the
 * message. Ask it: found -> sent; not found -> queued again (re-checked, then sent once);
 * no answer -> ask again later. Without a lookup the row fails: never a second text.
 */
export async function resolveInDoubt(options: EngineOptions) {
  const { db, channel, logger } = options;
  const seconds = options.inDoubtAfterSeconds ?? 60;
  // A text of its own (no campaign) is an SMS: the SMS sender asks about it like a campaign's row.
  const result = await db.execute<Row>(sql`
    WITH stale AS (
      SELECT r.id, r.locked_at AS claimed_at FROM campaign_recipients r LEFT JOIN campaigns c ON c.id = r.campaign_id
      WHERE r.state = 'sending' AND r.locked_at < clock_timestamp() - make_interval(secs => ${seconds})
        AND coalesce(c.channel, 'sms') = ${channel.name}
      ORDER BY r.locked_at LIMIT 50
      FOR UPDATE OF r SKIP LOCKED
    )
    UPDATE campaign_recipients r SET locked_at = clock_timestamp(), updated_at = clock_timestamp()
    FROM stale WHERE r.id = stale.id
    RETURNING r.id, r.campaign_id, r.subscriber_id, r.kind, r.address, r.attempts, stale.claimed_at AS locked_at,
      COALESCE(r.body, (SELECT c.send_body FROM campaigns c WHERE c.id = r.campaign_id)) AS body,
      (SELECT c.expires_at FROM campaigns c WHERE c.id = r.campaign_id) AS expires_at`);
  for (const row of result.rows.map(claimedFrom)) {
    if (!channel.lookup) {
      await finish(db, row.id, { state: "failed", reason: "in_doubt", error: "Interrupted mid-send; the provider cannot be asked, so it is not sent again." });
      continue;
    }
    // The provider's clock and ours differ a little, and Twilio's dates are whole seconds.
    const answer = await channel.lookup(row, new Date(row.lockedAt.getTime() - 120_000));
    if (answer.found === true) {
      await finish(db, row.id, { state: "sent", providerId: answer.providerId, providerStatus: answer.providerStatus, segments: channel.segments(row.body), sentAt: row.lockedAt });
      logger.info({ recipientId: row.id }, "in-doubt send found at the provider: recorded as sent");
    } else if (answer.found === false) {
      await db.execute(sql`UPDATE campaign_recipients SET state = 'queued', locked_at = NULL, attempts = GREATEST(0, attempts - 1), updated_at = clock_timestamp() WHERE id = ${row.id} AND state = 'sending'`);
      logger.info({ recipientId: row.id }, "in-doubt send not at the provider: queued again");
    } else {
      logger.warn({ recipientId: row.id, error: answer.error }, "in-doubt send: the provider did not answer; asking again later");
    }
  }
  return result.rows.length;
}

type Outcome = {
  state: "sent" | "failed" | "skipped" | "cancelled" | "queued";
  reason?: string | null;
  error?: string | null;
  providerId?: string;
  providerStatus?: string;
  segments?: number;
  sentAt?: Date;
  nextAttemptAt?: Date;
  /** A wait for quiet hours is not a send attempt. */
  uncountAttempt?: boolean;
};

async function finish(db: Db, id: number, outcome: Outcome) {
  await db.execute(sql`
    UPDATE campaign_recipients SET
      state = ${outcome.state},
      reason = ${outcome.reason ?? null},
      error = ${outcome.error ?? null},
      provider_id = COALESCE(${outcome.providerId ?? null}, provider_id),
      provider_status = COALESCE(${outcome.providerStatus ?? null}, provider_status),
      segments = COALESCE(${outcome.segments ?? null}::int, segments),
      sent_at = COALESCE(${outcome.sentAt?.toISOString() ?? null}::timestamptz, sent_at),
      next_attempt_at = COALESCE(${outcome.nextAttemptAt?.toISOString() ?? null}::timestamptz, next_attempt_at),
      attempts = CASE WHEN ${outcome.uncountAttempt ?? false}::boolean THEN GREATEST(0, attempts - 1) ELSE attempts END,
      locked_at = NULL,
      updated_at = clock_timestamp()
    WHERE id = ${id} AND state = 'sending'`);
}

/** Marks running campaigns with nothing left to send as completed. */
async function completeFinished(db: Db, channel: SendChannel["name"], now: Date) {
  const done = await db.execute<{ id: string }>(sql`
    UPDATE campaigns c SET status = 'completed', finished_at = ${now.toISOString()}::timestamptz, updated_at = ${now.toISOString()}::timestamptz
    WHERE c.status = 'sending' AND c.channel = ${channel}
      AND NOT EXISTS (SELECT 1 FROM campaign_recipients r WHERE r.campaign_id = c.id AND r.state IN ('queued', 'sending'))
    RETURNING c.id`);
  if (done.rows.length > 0) {
    await db.insert(auditLog).values(done.rows.map((row) => ({ actor: "system", action: "campaign.completed", entity: `campaign:${row.id}`, after: JSON.stringify({ status: "completed" }) })));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How many sends may wait for the provider's answer at once (decision 068). Two seconds of the
 * rate, at least 20: at SMS_MPS=20 a provider that answers 1 request in 50 after its 10 s timeout
 * holds about 4 slots, so the rate holds; a provider that answers nothing holds the whole window,
 * and then no more than that many texts are in doubt.
 */
export function windowFor(ratePerSecond: number) {
  return Math.min(1000, Math.max(20, Math.ceil(ratePerSecond * 2)));
}

type Settled = { row: ClaimedRecipient; result: SendResult };

/**
 * One pass: start due campaigns, settle in-doubt rows, then send due rows at the channel's rate
 * until none is due. Each message is checked by the channel right before it goes. Sends are not
 * awaited pass by pass: up to `windowFor(rate)` wait for their answer while the next rows are
 * claimed and sent, so one request that waits out its timeout does not stop the others. Answers
 * are recorded as they come (successes in one statement per pass); the pass ends once nothing is
 * due and every answer is in, so a stop (or the end of a drain) never leaves a send unrecorded.
 */
export async function drainCampaigns(options: EngineOptions, isStopped: () => boolean = () => false) {
  const { db, channel } = options;
  const clock = options.clock ?? (() => new Date());
  await startDueCampaigns(options, clock());
  await resolveInDoubt(options);
  // Each pass takes what the bucket holds (up to 200): a pass slowed down by a busy database takes
  // the tokens that piled up meanwhile, so the rate holds.
  const want = Math.min(200, burstFor(channel.ratePerSecond));
  const window = windowFor(channel.ratePerSecond);
  const inFlight = new Set<Promise<void>>();
  /** Campaign sends per subscriber waiting for an answer: they count toward the frequency cap. */
  const sendingNow = new Map<string, number>();
  let answered: Settled[] = [];
  let sent = 0;
  const record = async () => {
    if (answered.length === 0) return;
    const batch = answered;
    answered = [];
    await recordResults(options, batch, clock);
  };
  try {
    while (!isStopped()) {
      await record();
      const passStarted = performance.now();
      const room = window - inFlight.size;
      if (room <= 0) {
        // The window is full: the next answer frees a slot.
        await Promise.race([...inFlight, sleep(MIN_PASS_MS)]);
        continue;
      }
      const tokens = await takeTokens(db, channel.rateKey, channel.ratePerSecond, Math.min(want, room));
      if (tokens.granted === 0) {
        await sleep(Math.min(Math.max(tokens.waitMs, MIN_PASS_MS), 250));
        continue;
      }
      const now = clock();
      const rows = await claimDue(db, channel.name, tokens.granted, now);
      if (rows.length === 0) {
        await returnTokens(db, channel.rateKey, channel.ratePerSecond, tokens.granted);
        if (inFlight.size === 0) {
          // Every answer is in (each is pushed before its send leaves the window): record them
          // first, or a campaign whose last answer came meanwhile would not be seen as finished.
          await record();
          await completeFinished(db, channel.name, now);
          break;
        }
        // Answers are still out: keep looking for new rows (a STOP's reply) while they come in.
        await Promise.race([Promise.all(inFlight), sleep(MIN_PASS_MS)]);
        continue;
      }
      const decisions = await channel.decide(db, rows, now, sendingNow);
      const toSend: ClaimedRecipient[] = [];
      for (const row of rows) {
        const decision: ChannelDecision = decisions.get(row.id) ?? { action: "skip", reason: "not_active" };
        if (decision.action === "send") toSend.push(row);
        else if (decision.action === "wait") await finish(db, row.id, { state: "queued", reason: decision.reason ?? "quiet_hours", nextAttemptAt: decision.until, uncountAttempt: true });
        // A text of its own that may not go is cancelled, as the old outbox did (the Messages page's word).
        else if (row.kind !== "campaign") await finish(db, row.id, { state: "cancelled", reason: decision.reason, error: `Not sent: ${reasonLabel(decision.reason)}.` });
        else await finish(db, row.id, { state: "skipped", reason: decision.reason });
      }
      await returnTokens(db, channel.rateKey, channel.ratePerSecond, tokens.granted - toSend.length);
      for (const row of toSend) {
        const counted = row.kind === "campaign" && row.subscriberId !== null ? row.subscriberId : null;
        if (counted) sendingNow.set(counted, (sendingNow.get(counted) ?? 0) + 1);
        const sending: Promise<void> = channel
          .send(row)
          .catch((error: unknown): SendResult => ({ ok: false, retryable: false, inDoubt: true, error: error instanceof Error ? error.message : String(error) }))
          .then((result) => {
            answered.push({ row, result });
          })
          .finally(() => {
            inFlight.delete(sending);
            if (counted) {
              const left = (sendingNow.get(counted) ?? 1) - 1;
              if (left > 0) sendingNow.set(counted, left);
              else sendingNow.delete(counted);
            }
          });
        inFlight.add(sending);
      }
      sent += toSend.length;
      // The bucket ran dry: let a fifth of a second's tokens gather instead of spinning on tiny passes.
      const elapsed = performance.now() - passStarted;
      if (tokens.granted < want && elapsed < MIN_PASS_MS) await sleep(MIN_PASS_MS - elapsed);
    }
  } finally {
    // A stop (or a database error) waits for the answers already out and records them: a send is
    // never left `sending` by this process while it runs.
    await Promise.all(inFlight);
    await record();
  }
  return sent;
}

const MIN_PASS_MS = 200;

/** Successes are recorded in one statement per pass; anything else row by row (rare). */
async function recordResults(options: EngineOptions, results: Settled[], clock: () => Date) {
  const { db, channel } = options;
  const sentAt = clock().toISOString();
  const delivered = results.filter((entry) => entry.result.ok);
  if (delivered.length > 0) {
    const values = delivered.map(({ row, result }) => ({
      id: row.id,
      provider_id: result.ok ? result.providerId : null,
      provider_status: result.ok ? result.providerStatus : null,
      segments: channel.segments(row.body),
    }));
    await db.execute(sql`
      UPDATE campaign_recipients r SET state = 'sent', reason = NULL, error = NULL, provider_id = x.provider_id, provider_status = x.provider_status,
        segments = x.segments, sent_at = ${sentAt}::timestamptz, locked_at = NULL, updated_at = clock_timestamp()
      FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb) AS x(id bigint, provider_id text, provider_status text, segments int)
      WHERE r.id = x.id AND r.state = 'sending'`);
  }
  for (const { row, result } of results) if (!result.ok) await recordFailure(options, row, result, clock);
}

async function recordFailure(options: EngineOptions, row: ClaimedRecipient, result: Extract<SendResult, { ok: false }>, clock: () => Date) {
  const { db, channel, logger } = options;
  if (result.inDoubt) {
    // Left `sending`: the in-doubt pass asks the provider before anything is sent again.
    logger.warn({ recipientId: row.id, error: result.error }, "campaign send got no answer; in doubt until the provider is asked");
    return;
  }
  if (result.optedOut) {
    await channel.optOut(db, row, result.error);
    await finish(db, row.id, { state: "failed", reason: channel.optOutReason ?? "carrier_opt_out", error: result.error });
    return;
  }
  if (!result.retryable) {
    await finish(db, row.id, { state: "failed", reason: "provider_error", error: result.error });
    return;
  }
  if (row.attempts >= MAX_SEND_ATTEMPTS) {
    await finish(db, row.id, { state: "failed", reason: "retries_exhausted", error: result.error });
    return;
  }
  await finish(db, row.id, { state: "queued", error: result.error, nextAttemptAt: new Date(clock().getTime() + backoffSeconds(row.attempts) * 1000) });
  logger.warn({ recipientId: row.id, attempts: row.attempts, error: result.error }, "campaign send failed; retrying later");
}

/**
 * The engine in a server process: polls, and wakes at once when a campaign is started or (SMS) a
 * text of its own is queued.
 */
export function startCampaignSender(options: EngineOptions & { pollMs?: number; autoStart?: boolean }): JobLoop {
  return startJobLoop({
    name: `campaigns-${options.channel.name}`,
    drain: (isStopped) => drainCampaigns(options, isStopped),
    logger: options.logger,
    pollMs: options.pollMs,
    signal: sendSignals[options.channel.name],
    autoStart: options.autoStart,
  });
}
