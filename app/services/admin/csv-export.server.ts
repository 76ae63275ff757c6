import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";

const COLUMNS = ["created_at", "channel", "status", "source", "first_name", "last_name", "phone_e164", "email", "click_id"] as const;
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
 * The subscriber list as CSV, read in keyset-paged batches so any number of rows streams without
 * being held in memory.
 */
export function subscribersCsvStream(db: Db): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: { createdAt: string; id: string } | null = null;
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(`${COLUMNS.join(",")}\r\n`));
        return;
      }
      const after: { createdAt: string; id: string } | null = cursor;
      const result = await db.execute<Record<(typeof COLUMNS)[number] | "id" | "cursor_at", unknown>>(sql`
        SELECT id, created_at, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS cursor_at,
          channel, status, source, first_name, last_name, phone_e164, email, click_id
        FROM subscribers
        ${after ? sql`WHERE (created_at, id) > (${after.createdAt}::timestamp AT TIME ZONE 'UTC', ${after.id}::uuid)` : sql``}
        ORDER BY created_at, id LIMIT ${BATCH}`);
      if (result.rows.length === 0) {
        controller.close();
        return;
      }
      const lines = result.rows.map((row) => COLUMNS.map((column) => csvField(row[column])).join(",")).join("\r\n");
      controller.enqueue(encoder.encode(`${lines}\r\n`));
      const last = result.rows.at(-1)!;
      cursor = { createdAt: String(last.cursor_at), id: String(last.id) };
    },
  });
}
