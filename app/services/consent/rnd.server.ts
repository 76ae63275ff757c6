import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { auditLog, rndAnswers } from "~/db/schema";
import type { RndResult } from "../providers/rnd-api.server";
import type { RndPolicy } from "./rnd-check";

/**
 * Answers of the Reassigned Numbers Database kept as evidence, consent ended by a "yes", and the
 * bulk files for brands without API access (decision 071).
 */
type Executor = Pick<Db, "insert" | "execute" | "transaction">;

/** The consent events that grant or renew SMS consent: the RND is asked about the newest one's date. */
export const SMS_CONSENT_ACTIONS = ["opt_in", "start", "doi_confirmed"] as const;
const consentActions = sql.raw(SMS_CONSENT_ACTIONS.map((action) => `'${action}'`).join(", "));

/**
 * When a subscriber last gave SMS consent (an SQL expression): the newest granting consent event,
 * or the row's creation for a subscriber with none on record (rows made before the events were).
 */
export const latestSmsConsentAt = (
  subscriberIdColumn: ReturnType<typeof sql>,
  createdAtColumn: ReturnType<typeof sql>,
) =>
  sql`coalesce((SELECT max(c.occurred_at) FROM consent_events c WHERE c.subscriber_id = ${subscriberIdColumn} AND c.action IN (${consentActions})), ${createdAtColumn})`;

/** `answeredAt`: the send engine's clock for answers it asked for (the database's now otherwise). */
export async function recordRndAnswers(
  db: Pick<Db, "insert">,
  results: RndResult[],
  source: "api" | "file",
  options: { fileName?: string; answeredAt?: Date } = {},
) {
  for (let start = 0; start < results.length; start += 1000) {
    const rows = results.slice(start, start + 1000).map((result) => ({
      phone: result.phone,
      askedDate: result.date,
      answer: result.answer,
      source,
      fileName: options.fileName ?? null,
      ...(options.answeredAt ? { answeredAt: options.answeredAt } : {}),
    }));
    await db.insert(rndAnswers).values(rows);
  }
}

/**
 * Ends the consent of active SMS subscribers whose number the RND says was disconnected on or
 * after their consent date: status `lapsed` and an `rnd_lapsed` consent event, once per person.
 * A new opt-in makes them active again.
 */
export async function lapseReassignedConsents(db: Executor, phones: string[]) {
  if (phones.length === 0) return 0;
  const list = phones.join(",");
  const lapsed = await db.execute<{ id: string }>(sql`
    WITH candidates AS (
      SELECT s.id, s.phone_e164, ${latestSmsConsentAt(sql`s.id`, sql`s.created_at`)} AS consent_at
      FROM subscribers s
      WHERE s.channel = 'sms' AND s.status = 'active' AND substr(s.phone_e164, 3) = ANY(string_to_array(${list}, ','))
    ), reassigned AS (
      SELECT c.id, c.phone_e164, a.id AS answer_id FROM candidates c
      JOIN LATERAL (
        SELECT a.id FROM rnd_answers a
        WHERE a.phone = substr(c.phone_e164, 3)::char(10) AND a.answer = 'yes' AND a.asked_date >= (c.consent_at AT TIME ZONE 'UTC')::date
        ORDER BY a.answered_at DESC LIMIT 1
      ) a ON true
      WHERE c.consent_at IS NOT NULL
    ), updated AS (
      UPDATE subscribers s SET status = 'lapsed', updated_at = now()
      FROM reassigned r WHERE s.id = r.id AND s.status = 'active'
      RETURNING s.id, r.phone_e164, r.answer_id
    )
    INSERT INTO consent_events (subscriber_id, channel, action, source, phone_e164, inbound_body)
    SELECT id, 'sms', 'rnd_lapsed', 'rnd', phone_e164, 'Reassigned Numbers Database answer #' || answer_id || ': permanently disconnected on or after the consent date'
    FROM updated
    RETURNING subscriber_id AS id`);
  return lapsed.rows.length;
}

/** "number,consent date" for the RND's bulk upload: active SMS subscribers that need an answer within `leadDays`. */
export async function rndUploadRows(db: Pick<Db, "execute">, policy: RndPolicy, now: Date, leadDays = 7) {
  const dueBefore = new Date(now.getTime() - Math.max(0, policy.checkAfterDays - leadDays) * 86_400_000);
  const freshSince = new Date(now.getTime() - policy.answerMaxAgeDays * 86_400_000);
  const result = await db.execute<{ phone: string; consent_date: string }>(sql`
    SELECT substr(s.phone_e164, 3) AS phone, to_char((x.consent_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS consent_date
    FROM subscribers s
    CROSS JOIN LATERAL (SELECT ${latestSmsConsentAt(sql`s.id`, sql`s.created_at`)} AS consent_at) x
    WHERE s.channel = 'sms' AND s.status = 'active' AND x.consent_at IS NOT NULL AND x.consent_at <= ${dueBefore.toISOString()}::timestamptz
      AND NOT EXISTS (
        SELECT 1 FROM rnd_answers a
        WHERE a.phone = substr(s.phone_e164, 3)::char(10) AND a.asked_date >= (x.consent_at AT TIME ZONE 'UTC')::date
          AND (a.answer = 'yes' OR a.answered_at >= ${freshSince.toISOString()}::timestamptz)
      )
    ORDER BY s.phone_e164`);
  return result.rows.map((row) => ({ phone: row.phone, date: row.consent_date }));
}

export type RndImportReport = {
  lines: number;
  recorded: number;
  yes: number;
  no: number;
  noData: number;
  lapsed: number;
  /** Lines that could not be read, with why (the first 50). */
  refused: { line: number; text: string; reason: string }[];
  refusedCount: number;
};

const ANSWERS: Record<string, RndResult["answer"]> = {
  yes: "yes",
  y: "yes",
  no: "no",
  n: "no",
  "no data": "no_data",
  no_data: "no_data",
  nodata: "no_data",
};

/** YYYY-MM-DD, YYYYMMDD or MM/DD/YYYY to YYYY-MM-DD, or null for anything else or an impossible day. */
function readDate(text: string) {
  const match =
    /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(text) ??
    (/^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text) && [text, text.slice(6), text.slice(0, 2), text.slice(3, 5)]);
  if (!match) return null;
  const iso = `${match[1]}-${match[2]}-${match[3]}`;
  const parsed = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== iso ? null : iso;
}

/** Reads an RND results file: one "number, date, answer" per line; a header line and blank lines are passed over. */
export function parseRndResults(text: string) {
  const results: RndResult[] = [];
  const refused: RndImportReport["refused"] = [];
  let lines = 0;
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return;
    const cells = line.split(/[,\t|]/).map((cell) => cell.trim().replace(/^"|"$/g, ""));
    if (index === 0 && !/\d/.test(cells[0] ?? "")) return;
    lines += 1;
    const phone = (cells[0] ?? "").replace(/\D/g, "").replace(/^1(?=\d{10}$)/, "");
    const date = readDate(cells[1] ?? "");
    const answer = ANSWERS[(cells[2] ?? "").toLowerCase()];
    const reason = !/^[2-9]\d{9}$/.test(phone)
      ? "not a 10-digit US number"
      : !date
        ? "not a date"
        : !answer
          ? "the answer is not “yes”, “no” or “no data”"
          : null;
    if (reason) refused.push({ line: index + 1, text: line.slice(0, 80), reason });
    else results.push({ phone, date: date!, answer: answer! });
  });
  return { lines, results, refused };
}

/** Imports a results file in one transaction: every answer recorded, then the consents it ends, then the audit line. */
export async function importRndResults(
  db: Executor,
  text: string,
  fileName: string,
  actor = "system",
): Promise<RndImportReport> {
  const { lines, results, refused } = parseRndResults(text);
  const lapsed = await db.transaction(async (tx) => {
    await recordRndAnswers(tx, results, "file", { fileName });
    const ended = await lapseReassignedConsents(tx, [
      ...new Set(results.filter((result) => result.answer === "yes").map((result) => result.phone)),
    ]);
    await tx.insert(auditLog).values({
      actor,
      action: "rnd.import",
      entity: "rnd_answers",
      after: JSON.stringify({
        file: fileName,
        sha256: createHash("sha256").update(text).digest("hex"),
        lines,
        recorded: results.length,
        refused: refused.length,
        lapsed: ended,
      }),
    });
    return ended;
  });
  return {
    lines,
    recorded: results.length,
    yes: results.filter((result) => result.answer === "yes").length,
    no: results.filter((result) => result.answer === "no").length,
    noData: results.filter((result) => result.answer === "no_data").length,
    lapsed,
    refused: refused.slice(0, 50),
    refusedCount: refused.length,
  };
}

/** The answers about one number, newest first (the certificate shows them). */
export async function rndAnswersFor(db: Pick<Db, "execute">, phone10: string) {
  const result = await db.execute<{
    asked_date: string;
    answer: string;
    source: string;
    file_name: string | null;
    answered_at: string | Date;
  }>(sql`
    SELECT to_char(asked_date, 'YYYY-MM-DD') AS asked_date, answer, source, file_name, answered_at FROM rnd_answers
    WHERE phone = ${phone10}::char(10) ORDER BY answered_at DESC, id DESC LIMIT 50`);
  return result.rows.map((row) => ({
    askedDate: row.asked_date,
    answer: row.answer as RndResult["answer"],
    source: row.source,
    fileName: row.file_name,
    answeredAt: new Date(row.answered_at),
  }));
}
