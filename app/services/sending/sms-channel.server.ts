import { eq, sql } from "drizzle-orm";
import { SegmentedMessage } from "sms-segments-calculator";
import type { Db } from "~/db/client.server";
import { consentEvents, subscribers } from "~/db/schema";
import { consentDate, DEFAULT_RND_POLICY, needsRndAnswer, rndVerdict, type RndAnswer, type RndPolicy, type RndVerdict } from "../consent/rnd-check";
import { lapseReassignedConsents, latestSmsConsentAt, recordRndAnswers } from "../consent/rnd.server";
import { addInternalDnc } from "../dnc/dnc.server";
import type { RndApi } from "../providers/rnd-api.server";
import type { SmsTransport } from "../providers/sms-transport.server";
import type { ChannelDecision, ClaimedRecipient, SendChannel } from "./channel";
import { checkSmsSend, checkTextSend, FREQUENCY_CAP_PER_24H } from "./sms-check";

/** A campaign text whose RND answer could not be had is tried again after this long. */
const RND_RETRY_MS = 5 * 60_000;

export function smsSegments(body: string) {
  return new SegmentedMessage(body, "auto").segmentsCount;
}

/**
 * SMS for the send engine: the facts the pure check needs (status, our list, the federal list, the
 * latest marketing sends) in one query right before the send, Twilio (or the log transport) to
 * send and to ask about an interrupted send, and carrier unsubscribes mirrored into our list.
 */
export function createSmsChannel(options: {
  transport: SmsTransport;
  ratePerSecond: number;
  dncPolicy: "refuse" | "allow_with_consent";
  quietHoursOffsetMs?: number;
  /** The Reassigned Numbers Database rule (decision 071) and, where configured, its query API. */
  rnd?: { policy: RndPolicy; api?: RndApi; onApiError?: (error: Error) => void };
}): SendChannel {
  const { transport } = options;
  const segmentCache = new Map<string, number>();
  const rnd = options.rnd ?? { policy: DEFAULT_RND_POLICY };

  /**
   * The RND verdict per campaign row. Numbers whose consent needs an answer that is not on record
   * are asked of the query API (where configured) in one go, and the answers kept as evidence;
   * when the API cannot answer, those rows wait (rnd_unavailable) instead of being dropped.
   */
  async function reassignedNumberVerdicts(db: Db, rows: ClaimedRecipient[], facts: Map<number, Record<string, unknown>>, now: Date) {
    const known = new Map<number, { phone: string; consentAt: Date | null; answers: RndAnswer[] }>();
    for (const row of rows) {
      if (row.kind !== "campaign") continue;
      const fact = facts.get(row.id);
      const answers = (JSON.parse(String(fact?.rnd ?? "[]")) as { d: string; a: RndAnswer["answer"]; t: number }[]).map((answer) => ({ askedDate: answer.d, answer: answer.a, answeredAt: new Date(answer.t) }));
      known.set(row.id, { phone: row.address.slice(2), consentAt: fact?.consent_at == null ? null : new Date(Number(fact.consent_at)), answers });
    }
    const toAsk = [...known.values()].filter((fact) => needsRndAnswer(fact.consentAt, fact.answers, rnd.policy, now));
    let unavailable = false;
    if (toAsk.length > 0 && rnd.api) {
      const questions = new Map(toAsk.map((fact) => [fact.phone, { phone: fact.phone, date: consentDate(fact.consentAt!) }]));
      try {
        const results = await rnd.api.query([...questions.values()]);
        await recordRndAnswers(db, results, "api", { answeredAt: now });
        for (const fact of toAsk) fact.answers.push(...results.filter((result) => result.phone === fact.phone).map((result) => ({ askedDate: result.date, answer: result.answer, answeredAt: now })));
      } catch (error) {
        rnd.onApiError?.(error as Error);
        unavailable = true;
      }
    }
    const verdicts = new Map<number, RndVerdict | "unavailable">();
    for (const [id, fact] of known) verdicts.set(id, unavailable && toAsk.includes(fact) ? "unavailable" : rndVerdict(fact.consentAt, fact.answers, rnd.policy, now));
    return verdicts;
  }

  return {
    name: "sms",
    rateKey: "sms",
    ratePerSecond: options.ratePerSecond,
    async decide(db, rows, now, inFlight) {
      const ids = rows.map((row) => row.id).join(",");
      // `sent_at IS NOT NULL` lets the person's last sends come off campaign_recipients_subscriber_sent_idx
      // (partial on it); without it, each row of a pass scanned the whole ledger (85 ms a pass).
      const result = await db.execute<Record<string, unknown>>(sql`
        SELECT r.id, s.status,
          EXISTS (SELECT 1 FROM dnc_numbers d WHERE d.phone = substr(r.address, 3)::char(10) AND d.source = 'internal') AS internal,
          EXISTS (SELECT 1 FROM dnc_numbers d WHERE d.phone = substr(r.address, 3)::char(10) AND d.source = 'federal') AS federal,
          (SELECT coalesce(json_agg(x.at), '[]'::json)::text FROM (
            SELECT floor(extract(epoch FROM o.sent_at) * 1000)::float8 AS at FROM campaign_recipients o
            WHERE o.subscriber_id = r.subscriber_id AND o.state = 'sent' AND o.sent_at IS NOT NULL AND o.campaign_id IS NOT NULL
            ORDER BY o.sent_at DESC LIMIT ${FREQUENCY_CAP_PER_24H}) x) AS recent,
          floor(extract(epoch FROM ${latestSmsConsentAt(sql`r.subscriber_id`, sql`s.created_at`)}) * 1000)::float8 AS consent_at,
          (SELECT coalesce(json_agg(json_build_object('d', a.d, 'a', a.answer, 't', a.t)), '[]'::json)::text FROM (
            SELECT to_char(a.asked_date, 'YYYY-MM-DD') AS d, a.answer, floor(extract(epoch FROM a.answered_at) * 1000)::float8 AS t
            FROM rnd_answers a WHERE a.phone = substr(r.address, 3)::char(10) ORDER BY a.answered_at DESC LIMIT 20) a) AS rnd
        FROM campaign_recipients r LEFT JOIN subscribers s ON s.id = r.subscriber_id
        WHERE r.id = ANY(string_to_array(${ids}, ',')::bigint[])`);
      const byId = new Map(result.rows.map((row) => [Number(row.id), row]));
      const decisions = new Map<number, ChannelDecision>();
      // Two campaigns' rows for one person in the same batch: the first one's send counts for the
      // second; so does one still waiting for the provider's answer.
      const sendingNow = new Map<string, number>(inFlight ?? []);
      const truthy = (value: unknown) => value === true || value === "t";
      const rndVerdicts = await reassignedNumberVerdicts(db, rows, byId, now);
      for (const row of rows) {
        const facts = byId.get(row.id);
        if (row.kind !== "campaign") {
          decisions.set(
            row.id,
            checkTextSend(row.kind, { hasSubscriber: row.subscriberId !== null, subscriberStatus: facts ? ((facts.status as string | null) ?? null) : null, onInternalDnc: truthy(facts?.internal) }),
          );
          continue;
        }
        const subscriberId = row.subscriberId ?? "";
        const rndFact = rndVerdicts.get(row.id);
        decisions.set(
          row.id,
          checkSmsSend(
            {
              phone: row.address,
              subscriberStatus: facts ? ((facts.status as string | null) ?? null) : null,
              onInternalDnc: truthy(facts?.internal),
              onFederalDnc: truthy(facts?.federal),
              rnd: rndFact === "unavailable" ? undefined : rndFact,
              recentMarketingSends: [
                ...(JSON.parse(String(facts?.recent ?? "[]")) as number[]).map((ms) => new Date(ms)),
                ...Array.from({ length: sendingNow.get(subscriberId) ?? 0 }, () => now),
              ],
            },
            { dncPolicy: options.dncPolicy, frequencyCap: FREQUENCY_CAP_PER_24H, expiresAt: row.expiresAt, quietHoursOffsetMs: options.quietHoursOffsetMs },
            now,
          ),
        );
        // Everything else allows the text, but the RND could not be asked: hold it, do not drop it.
        if (rndFact === "unavailable" && decisions.get(row.id)!.action === "send") {
          decisions.set(row.id, { action: "wait", until: new Date(now.getTime() + RND_RETRY_MS), reason: "rnd_unavailable" });
        }
        if (decisions.get(row.id)!.action === "send") sendingNow.set(subscriberId, (sendingNow.get(subscriberId) ?? 0) + 1);
      }
      const reassigned = rows.filter((row) => {
        const decision = decisions.get(row.id);
        return decision?.action === "skip" && decision.reason === "rnd_reassigned";
      });
      if (reassigned.length > 0) await lapseReassignedConsents(db, reassigned.map((row) => row.address.slice(2)));
      return decisions;
    },
    send: (row) => transport.send({ id: row.id, to: row.address, body: row.body }),
    lookup: transport.lookup ? (row, since) => transport.lookup!({ to: row.address, body: row.body, since }) : undefined,
    async optOut(db: Db, row, evidence) {
      const subscriberId = row.subscriberId;
      // A test text or a phone code has no subscriber: the number goes on our list all the same.
      if (!subscriberId) return void (await addInternalDnc(db, row.address.replace(/^\+1/, "")));
      await db.transaction(async (tx) => {
        await tx.update(subscribers).set({ status: "opted_out", updatedAt: sql`now()` }).where(eq(subscribers.id, subscriberId));
        await addInternalDnc(tx, row.address.replace(/^\+1/, ""));
        await tx.insert(consentEvents).values({
          subscriberId,
          channel: "sms",
          action: "opt_out",
          source: "carrier",
          phoneE164: row.address,
          inboundBody: evidence.slice(0, 500),
        });
      });
    },
    segments(body) {
      let count = segmentCache.get(body);
      if (count === undefined) {
        count = smsSegments(body);
        if (segmentCache.size > 100) segmentCache.clear();
        segmentCache.set(body, count);
      }
      return count;
    },
  };
}
