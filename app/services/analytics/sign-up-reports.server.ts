import { sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { toNumber } from "~/db/client.server";
import { LEAD_PAGE_PATH, LEAD_SUB_ID } from "./lead-gen";
import type { ReportRange } from "./reports.server";
import type { SignUpFilter, SignUpState, SubParam } from "./sign-up-filter";

/**
 * How the sign-ups of a range are grouped: by the page that held the form, by source and campaign,
 * by sub-id; `lead`: the ad landing page's sign-ups by source, campaign and LEAD_SUB_ID (decision 154).
 */
export type SignUpGrouping = "page" | "entry" | "source" | "subId" | "lead";

/** The quality figures of one group of sign-ups (decision 150). */
export type SignUpFigures = {
  /** The group's key: [form path] | [channel, source, medium, campaign] | [parameter, value]; then the list (sms, email). */
  key: string[];
  signUps: number;
  /** Confirmed: the e-mail address confirmed, the SMS "Y" replied (or no double opt-in asked). */
  confirmed: number;
  /** Sign-ups at least 7 days old, and of them those still subscribed 7 days after signing up. */
  aged7: number;
  kept7: number;
  aged30: number;
  kept30: number;
  /** Unsubscribed (e-mail) or STOP (SMS) within 7 days of signing up. */
  left7: number;
  /** Of the sign-ups at least 7 days old, those who left within 7 days: the base of an opt-out rate that young sign-ups do not flatter. */
  agedLeft7: number;
};

/** Consent events that end a subscription: stops, unsubscribes, suppressions, refused or expired confirmations, lapsed numbers. */
const ENDING = sql`('opt_out', 'email_unsubscribe', 'email_bounce', 'email_complaint', 'doi_declined', 'doi_expired', 'rnd_lapsed')`;
/** What the person did to leave: STOP or unsubscribe. */
const LEAVING = sql`('opt_out', 'email_unsubscribe')`;

const GROUPS: Record<SignUpGrouping, { keys: SQL; from: SQL; width: number; where?: SQL }> = {
  page: { keys: sql`s.form_path`, from: sql``, width: 1 },
  // The page the visit came in on: the article a search or a link brought the reader to, when the
  // form was on another page ("" when no visit was found).
  entry: { keys: sql`s.entry_path`, from: sql``, width: 1 },
  source: { keys: sql`s.visit_channel, s.utm_source, s.utm_medium, s.utm_campaign`, from: sql``, width: 4 },
  subId: {
    keys: sql`sub.name, sub.value`,
    from: sql`CROSS JOIN LATERAL (VALUES ('sub1', s.sub1), ('sub2', s.sub2), ('sub3', s.sub3), ('sub4', s.sub4), ('sub5', s.sub5)) AS sub(name, value)`,
    width: 2,
  },
  lead: { keys: sql`s.utm_source, s.utm_campaign, ${sql.raw(`s.${LEAD_SUB_ID}`)}`, from: sql``, width: 3, where: sql`WHERE s.form_path = ${LEAD_PAGE_PATH}` },
};

/** The bounds of a range of local days in the site's time zone, as the figures and the lists read them. */
function bounds(range: ReportRange, timeZone: string) {
  return {
    start: sql`((${range.from}::date)::timestamp AT TIME ZONE ${timeZone})`,
    end: sql`((${range.to}::date + 1)::timestamp AT TIME ZONE ${timeZone})`,
  };
}

/**
 * The CTE `s`: one row per sign-up (attribution) of a range of local days, or of all time without
 * one, with the times it was confirmed, ended and left. A subscriber's events count for a sign-up
 * from its time until the subscriber's next sign-up on that list. The figures and the subscriber
 * lists of decision 157 both read it, so a list holds exactly what a figure counts.
 */
export function signUpsWith(range: ReportRange | undefined, timeZone: string): SQL {
  const within = sql`c.subscriber_id = r.subscriber_id AND c.occurred_at >= r.created_at AND (r.next_at IS NULL OR c.occurred_at < r.next_at)`;
  const inRange = (column: SQL) => {
    if (!range) return sql``;
    const { start, end } = bounds(range, timeZone);
    return sql`WHERE ${column} >= ${start} AND ${column} < ${end}`;
  };
  return sql`
    WITH ranked AS (
      SELECT a.*, lead(a.created_at) OVER (PARTITION BY a.subscriber_id ORDER BY a.created_at, a.id) AS next_at
      FROM subscription_attributions a
      ${range ? sql`WHERE a.subscriber_id IN (SELECT subscriber_id FROM subscription_attributions ${inRange(sql`created_at`)})` : sql``}
    ), s AS (
      SELECT r.*,
        CASE
          WHEN r.channel = 'email' THEN (SELECT min(c.occurred_at) FROM consent_events c WHERE ${within} AND c.action = 'email_confirm')
          WHEN EXISTS (SELECT 1 FROM campaign_recipients m WHERE m.consent_event_id = r.consent_event_id AND m.kind = 'doi_request')
            THEN (SELECT min(c.occurred_at) FROM consent_events c WHERE ${within} AND c.action = 'doi_confirmed')
          ELSE r.created_at
        END AS confirmed_at,
        (SELECT min(c.occurred_at) FROM consent_events c WHERE ${within} AND c.action IN ${ENDING}) AS ended_at,
        (SELECT min(c.occurred_at) FROM consent_events c WHERE ${within} AND c.action IN ${LEAVING}) AS left_at
      FROM ranked r
      ${inRange(sql`r.created_at`)}
    )`;
}

/**
 * Each quality figure as a condition on a row of `s` (decision 150), at `now` (which decides which
 * sign-ups are old enough): the report counts `count(*) FILTER (WHERE …)` of it and the subscriber
 * list filters by it (decision 157), one definition for both.
 */
export function signUpStateSql(now: Date): Record<SignUpState, SQL> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const aged7 = sql`s.created_at <= ${at} - interval '7 days'`;
  const aged30 = sql`s.created_at <= ${at} - interval '30 days'`;
  const left7 = sql`s.left_at < s.created_at + interval '7 days'`;
  const kept = (days: SQL) => sql`s.confirmed_at < s.created_at + ${days} AND (s.ended_at IS NULL OR s.ended_at >= s.created_at + ${days})`;
  return {
    confirmed: sql`s.confirmed_at IS NOT NULL`,
    aged7,
    kept7: sql`${aged7} AND ${kept(sql`interval '7 days'`)}`,
    aged30,
    kept30: sql`${aged30} AND ${kept(sql`interval '30 days'`)}`,
    left7,
    agedLeft7: sql`${aged7} AND ${left7}`,
  };
}

/**
 * A filter of decision 157 as a condition on a row of `s` (its range is `signUpsWith`'s): each key
 * the very column a report groups by, so a report row's key and its link select the same sign-ups.
 */
export function signUpFilterSql(filter: SignUpFilter, now: Date): SQL {
  const conditions: SQL[] = [sql`TRUE`];
  if (filter.form !== undefined) conditions.push(sql`s.form_path = ${filter.form}`);
  if (filter.entry !== undefined) conditions.push(sql`s.entry_path = ${filter.entry}`);
  if (filter.visit !== undefined) conditions.push(sql`s.visit_channel = ${filter.visit}`);
  if (filter.source !== undefined) conditions.push(sql`s.utm_source = ${filter.source}`);
  if (filter.medium !== undefined) conditions.push(sql`s.utm_medium = ${filter.medium}`);
  if (filter.campaign !== undefined) conditions.push(sql`s.utm_campaign = ${filter.campaign}`);
  if (filter.sub) conditions.push(sql`${sql.raw(`s.${SUB_COLUMN[filter.sub.name]}`)} = ${filter.sub.value}`);
  if (filter.channel) conditions.push(sql`s.channel = ${filter.channel}`);
  if (filter.state) conditions.push(signUpStateSql(now)[filter.state]);
  return sql.join(conditions, sql` AND `);
}

/** The sub-id columns by parameter name: a fixed map, so no text of a request reaches raw SQL. */
const SUB_COLUMN: Record<SubParam, string> = { sub1: "sub1", sub2: "sub2", sub3: "sub3", sub4: "sub4", sub5: "sub5" };

/**
 * The sign-ups made in a range of local days (the site's time zone), grouped, with what became of
 * them: confirmed, still subscribed 7 and 30 days after (counted only among sign-ups that old),
 * gone within 7 days. `now` decides which sign-ups are old enough.
 */
export async function signUpFigures(db: Db, range: ReportRange, options: { timeZone: string; grouping: SignUpGrouping; now?: Date; limit?: number }): Promise<SignUpFigures[]> {
  const group = GROUPS[options.grouping];
  const state = signUpStateSql(options.now ?? new Date());
  const result = await db.execute<Record<string, unknown>>(sql`
    ${signUpsWith(range, options.timeZone)}
    SELECT ${group.keys}, s.channel AS list,
      count(*) AS sign_ups,
      count(*) FILTER (WHERE ${state.confirmed}) AS confirmed,
      count(*) FILTER (WHERE ${state.aged7}) AS aged7,
      count(*) FILTER (WHERE ${state.kept7}) AS kept7,
      count(*) FILTER (WHERE ${state.aged30}) AS aged30,
      count(*) FILTER (WHERE ${state.kept30}) AS kept30,
      count(*) FILTER (WHERE ${state.left7}) AS left7,
      count(*) FILTER (WHERE ${state.agedLeft7}) AS aged_left7
    FROM s ${group.from}
    ${options.grouping === "subId" ? sql`WHERE sub.value <> ''` : (group.where ?? sql``)}
    GROUP BY ${group.keys}, s.channel
    ORDER BY count(*) DESC, ${group.keys}, s.channel
    LIMIT ${options.limit ?? 50}`);
  return result.rows.map((row) => {
    const values = Object.values(row);
    return {
      key: [...values.slice(0, group.width).map(String), String(row.list)],
      signUps: toNumber(row.sign_ups),
      confirmed: toNumber(row.confirmed),
      aged7: toNumber(row.aged7),
      kept7: toNumber(row.kept7),
      aged30: toNumber(row.aged30),
      kept30: toNumber(row.kept30),
      left7: toNumber(row.left7),
      agedLeft7: toNumber(row.aged_left7),
    };
  });
}
