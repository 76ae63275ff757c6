import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";

/** The columns of the subscriber export, the filtered one (decision 157) adding the time of each sign-up before them. */
export const SUBSCRIBER_CSV_COLUMNS = ["created_at", "channel", "status", "source", "first_name", "last_name", "phone_e164", "email", "click_id"] as const;
const BATCH = 2000;
const FORMULA_START = /^'*[=+\-@\t\r]/;

/** The value behind a field written by csvField (the formula guard removed). */
export function csvValue(field: string) {
  return FORMULA_START.test(field) && field.startsWith("'") ? field.slice(1) : field;
}

/**
 * One RFC 4180 field; a leading =, +, - or @ (a spreadsheet formula) is neutralised with a quote.
 * Text that already starts with quotes before such a character gets one more, so `csvValue`
 * reverses it exactly.
 */
export function csvField(value: unknown) {
  let text = value === null || value === undefined ? "" : value instanceof Date ? value.toISOString() : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A CSV download streamed in keyset-paged batches: the header, then `page(after)` until it answers
 * no rows, `after` being the cursor of the last row sent. No more than one batch is ever held,
 * whatever the size of the list; every field goes through csvField.
 */
export function keysetCsvStream<Row, Cursor>(options: {
  columns: readonly string[];
  page: (after: Cursor | null) => Promise<Row[]>;
  fields: (row: Row) => unknown[];
  cursorOf: (row: Row) => Cursor;
}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: Cursor | null = null;
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(`${options.columns.join(",")}\r\n`));
        return;
      }
      const rows = await options.page(cursor);
      if (rows.length === 0) return controller.close();
      controller.enqueue(encoder.encode(`${rows.map((row) => options.fields(row).map(csvField).join(",")).join("\r\n")}\r\n`));
      cursor = options.cursorOf(rows.at(-1)!);
    },
  });
}

type SubscriberCsvRow = Record<(typeof SUBSCRIBER_CSV_COLUMNS)[number] | "id" | "cursor_at", unknown>;

/** The subscriber list as CSV, oldest first. */
export function subscribersCsvStream(db: Db): ReadableStream<Uint8Array> {
  return keysetCsvStream<SubscriberCsvRow, { createdAt: string; id: string }>({
    columns: SUBSCRIBER_CSV_COLUMNS,
    page: async (after) =>
      (
        await db.execute<SubscriberCsvRow>(sql`
          SELECT id, created_at, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS cursor_at,
            channel, status, source, first_name, last_name, phone_e164, email, click_id
          FROM subscribers
          ${after ? sql`WHERE (created_at, id) > (${after.createdAt}::timestamp AT TIME ZONE 'UTC', ${after.id}::uuid)` : sql``}
          ORDER BY created_at, id LIMIT ${BATCH}`)
      ).rows,
    fields: (row) => SUBSCRIBER_CSV_COLUMNS.map((column) => row[column]),
    cursorOf: (row) => ({ createdAt: String(row.cursor_at), id: String(row.id) }),
  });
}
