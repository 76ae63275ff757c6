import { inArray, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { toNumber } from "~/db/client.server";
import { subscribers } from "~/db/schema";
import type { SignUpFilter } from "~/services/analytics/sign-up-filter";
import { signUpFilterSql, signUpsWith } from "~/services/analytics/sign-up-reports.server";
import { keysetCsvStream, SUBSCRIBER_CSV_COLUMNS } from "./csv-export.server";
import { PAGE_SIZE, subscriberSearch } from "./reports.server";

export type SignUpListOptions = { timeZone: string; now: Date; search?: string };

/** The sign-ups a filter selects, joined to their subscriber, narrowed by the list's `q` search. */
function selected(filter: SignUpFilter, options: SignUpListOptions) {
  const search = subscriberSearch(options.search);
  return sql`${signUpsWith(filter.range, options.timeZone)}
    SELECT s.id, s.subscriber_id, s.created_at FROM s JOIN subscribers ON subscribers.id = s.subscriber_id
    WHERE ${signUpFilterSql(filter, options.now)}${search ? sql` AND ${search}` : sql``}`;
}

/**
 * One page of the sign-ups a figure of /admin/analytics counts (decision 157), newest first, each
 * with its subscriber as the plain list shows one: a person who signed up twice is there twice,
 * so the list's total is the figure. `now` must be the report's, for the figures that depend on age.
 */
export async function listSignUps(db: Db, filter: SignUpFilter, options: SignUpListOptions & { page: number }) {
  const [page, counted] = await Promise.all([
    db.execute<{ id: unknown; subscriber_id: string; created_at: unknown }>(sql`
      SELECT id, subscriber_id, created_at FROM (${selected(filter, options)}) AS chosen
      ORDER BY created_at DESC, id DESC LIMIT ${PAGE_SIZE} OFFSET ${(options.page - 1) * PAGE_SIZE}`),
    countSignUps(db, filter, options),
  ]);
  const ids = [...new Set(page.rows.map((row) => row.subscriber_id))];
  const people = ids.length ? await db.select().from(subscribers).where(inArray(subscribers.id, ids)) : [];
  const byId = new Map(people.map((person) => [person.id, person]));
  const rows = page.rows.flatMap((row) => {
    const person = byId.get(row.subscriber_id);
    return person ? [{ ...person, signUpId: toNumber(row.id), signedUpAt: asDate(row.created_at)! }] : [];
  });
  return { rows, total: counted };
}

/** How many sign-ups a filter selects: the number its figure shows. */
export async function countSignUps(db: Db, filter: SignUpFilter, options: SignUpListOptions) {
  const result = await db.execute<{ n: unknown }>(sql`SELECT count(*) AS n FROM (${selected(filter, options)}) AS chosen`);
  return toNumber(result.rows[0]?.n);
}

type SignUpCsvRow = Record<(typeof SUBSCRIBER_CSV_COLUMNS)[number] | "signed_up_at" | "sign_up_id" | "cursor_at", unknown>;

/**
 * The filtered list as CSV, oldest sign-up first: the subscriber export's columns after the time of
 * the sign-up, one line per sign-up like the page, keyset-paged like the plain export.
 */
export function signUpsCsvStream(db: Db, filter: SignUpFilter, options: SignUpListOptions): ReadableStream<Uint8Array> {
  const columns = ["signed_up_at", ...SUBSCRIBER_CSV_COLUMNS] as const;
  return keysetCsvStream<SignUpCsvRow, { at: string; id: number }>({
    columns,
    page: async (after) =>
      (
        await db.execute<SignUpCsvRow>(sql`
          SELECT chosen.id AS sign_up_id, chosen.created_at AS signed_up_at,
            to_char(chosen.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS cursor_at,
            subscribers.created_at, subscribers.channel, subscribers.status, subscribers.source, subscribers.first_name,
            subscribers.last_name, subscribers.phone_e164, subscribers.email, subscribers.click_id
          FROM (${selected(filter, options)}) AS chosen JOIN subscribers ON subscribers.id = chosen.subscriber_id
          ${after ? sql`WHERE (chosen.created_at, chosen.id) > (${after.at}::timestamp AT TIME ZONE 'UTC', ${after.id}::bigint)` : sql``}
          ORDER BY chosen.created_at, chosen.id LIMIT 2000`)
      ).rows,
    fields: (row) => columns.map((column) => (column === "signed_up_at" || column === "created_at" ? asDate(row[column]) : row[column])),
    cursorOf: (row) => ({ at: String(row.cursor_at), id: toNumber(row.sign_up_id) }),
  });
}

/** Timestamps read raw come back as Date (pg) or text (PGlite): ISO either way in the file. */
const asDate = (value: unknown) => (value instanceof Date ? value : value === null || value === undefined ? null : new Date(String(value)));
