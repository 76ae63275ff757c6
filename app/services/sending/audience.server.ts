import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "~/db/client.server";
import { KNOWN_STATES, npasMatching, ZONE_GROUPS, type ZoneGroup } from "./npa-regions";
import { FREQUENCY_CAP_PER_24H } from "./sms-check";

type Executor = Pick<Db, "execute">;

/** Opt-in dates are read as days in this zone (the brand's home market). */
export const AUDIENCE_DATE_ZONE = "America/New_York";

export const AudienceSchema = z
  .object({
    sources: z.array(z.enum(["opt-in", "newsletter", "sms-keyword"])).default([]),
    clickId: z.string().trim().max(100, "The click id filter is at most 100 characters.").default(""),
    clickIdMatch: z.enum(["exact", "prefix"]).default("exact"),
    optInFrom: z.iso.date("Enter the first opt-in day as a date.").optional(),
    optInTo: z.iso.date("Enter the last opt-in day as a date.").optional(),
    states: z.array(z.enum(KNOWN_STATES as [string, ...string[]], "Pick US states from the list.")).default([]),
    zones: z.array(z.enum(ZONE_GROUPS as [ZoneGroup, ...ZoneGroup[]], "Pick time zones from the list.")).default([]),
  })
  .refine((audience) => !audience.optInFrom || !audience.optInTo || audience.optInFrom <= audience.optInTo, {
    message: "The opt-in date range ends before it starts.",
    path: ["optInTo"],
  });

export type Audience = z.infer<typeof AudienceSchema>;

const list = (values: string[]) => sql`string_to_array(${values.join(",")}, ',')`;

/** The filters as a condition on `subscribers s` (any status: the exclusions are counted apart). */
export function audienceCondition(channel: "sms" | "email", audience: Audience): SQL {
  const parts: SQL[] = [sql`s.channel = ${channel}`];
  if (channel === "sms") parts.push(sql`s.phone_e164 IS NOT NULL`);
  if (audience.sources.length > 0) parts.push(sql`s.source = ANY(${list(audience.sources)})`);
  if (audience.clickId) {
    parts.push(audience.clickIdMatch === "prefix" ? sql`starts_with(s.click_id, ${audience.clickId})` : sql`s.click_id = ${audience.clickId}`);
  }
  if (audience.optInFrom) parts.push(sql`s.created_at >= (${audience.optInFrom}::date::timestamp AT TIME ZONE ${AUDIENCE_DATE_ZONE})`);
  if (audience.optInTo) parts.push(sql`s.created_at < ((${audience.optInTo}::date + 1)::timestamp AT TIME ZONE ${AUDIENCE_DATE_ZONE})`);
  if (channel === "sms" && (audience.states.length > 0 || audience.zones.length > 0)) {
    parts.push(sql`substr(s.phone_e164, 3, 3) = ANY(${list(npasMatching({ states: audience.states, zones: audience.zones }))})`);
  }
  return sql.join(parts, sql` AND `);
}

/** Plan-time facts per subscriber, from one index probe: on our opt-out list, on the federal list. */
const dncFacts = sql`
  coalesce(dnc.internal, false) AS internal, coalesce(dnc.federal, false) AS federal`;
const dncJoin = sql`
  LEFT JOIN LATERAL (
    SELECT bool_or(d.source = 'internal') AS internal, bool_or(d.source = 'federal') AS federal
    FROM dnc_numbers d WHERE d.phone = substr(s.phone_e164, 3)::char(10)
  ) dnc ON true`;

export type Reach = {
  matched: number;
  notActive: number;
  internalDnc: number;
  federalDnc: number;
  frequencyCap: number;
  reachable: number;
};

/** How many people the filters reach now, after every exclusion, counted in one statement. */
export async function countReach(db: Executor, audience: Audience, dncPolicy: "refuse" | "allow_with_consent", now = new Date()): Promise<Reach> {
  const refuse = dncPolicy === "refuse";
  const result = await db.execute<Record<string, string | number>>(sql`
    SELECT count(*)::int AS matched,
      count(*) FILTER (WHERE status <> 'active')::int AS not_active,
      count(*) FILTER (WHERE status = 'active' AND internal)::int AS internal_dnc,
      count(*) FILTER (WHERE status = 'active' AND NOT internal AND federal AND ${refuse}::boolean)::int AS federal_dnc,
      count(*) FILTER (WHERE status = 'active' AND NOT internal AND NOT (federal AND ${refuse}::boolean) AND capped)::int AS frequency_cap
    FROM (
      SELECT s.status, ${dncFacts},
        (SELECT count(*) FROM campaign_recipients r
          -- Alerts only: a welcome or a reply to the person's own text is not marketing (decision 068).
          WHERE r.subscriber_id = s.id AND r.state = 'sent' AND r.sent_at > ${now.toISOString()}::timestamptz - interval '24 hours' AND r.campaign_id IS NOT NULL) >= ${FREQUENCY_CAP_PER_24H} AS capped
      FROM subscribers s ${dncJoin} WHERE ${audienceCondition("sms", audience)}
    ) s`);
  const row = result.rows[0] ?? {};
  const reach = {
    matched: Number(row.matched ?? 0),
    notActive: Number(row.not_active ?? 0),
    internalDnc: Number(row.internal_dnc ?? 0),
    federalDnc: Number(row.federal_dnc ?? 0),
    frequencyCap: Number(row.frequency_cap ?? 0),
  };
  return { ...reach, reachable: reach.matched - reach.notActive - reach.internalDnc - reach.federalDnc - reach.frequencyCap };
}

/**
 * Fans a campaign out into its ledger in ONE statement: every active subscriber the filters
 * match, with those on a Do-Not-Call list recorded as skipped (and why). Nothing is read into
 * memory; a second call adds nobody twice.
 */
export async function planRecipients(db: Executor, campaign: { id: string; channel: "sms" | "email"; audience: Audience }, dncPolicy: "refuse" | "allow_with_consent", now: Date) {
  const refuse = dncPolicy === "refuse";
  // E-mail has no Do-Not-Call list: every active (confirmed) address the filters match is queued.
  const planned =
    campaign.channel === "email"
      ? sql`
      INSERT INTO campaign_recipients (campaign_id, subscriber_id, address, state, next_attempt_at)
      SELECT ${campaign.id}::uuid, s.id, s.email, 'queued', ${now.toISOString()}::timestamptz
      FROM subscribers s WHERE s.status = 'active' AND ${audienceCondition("email", campaign.audience)}
      ON CONFLICT (campaign_id, subscriber_id) DO NOTHING
      RETURNING 1`
      : sql`
      INSERT INTO campaign_recipients (campaign_id, subscriber_id, address, state, reason, next_attempt_at)
      SELECT ${campaign.id}::uuid, s.id, s.phone_e164,
        CASE WHEN s.internal OR (s.federal AND ${refuse}::boolean) THEN 'skipped' ELSE 'queued' END,
        CASE WHEN s.internal THEN 'internal_dnc' WHEN s.federal AND ${refuse}::boolean THEN 'federal_dnc' END,
        ${now.toISOString()}::timestamptz
      FROM (SELECT s.id, s.phone_e164, ${dncFacts} FROM subscribers s ${dncJoin} WHERE s.status = 'active' AND ${audienceCondition(campaign.channel, campaign.audience)}) s
      ON CONFLICT (campaign_id, subscriber_id) DO NOTHING
      RETURNING 1`;
  const result = await db.execute<{ planned: number | string }>(sql`WITH planned AS (${planned}) SELECT count(*)::int AS planned FROM planned`);
  return Number(result.rows[0]?.planned ?? 0);
}
