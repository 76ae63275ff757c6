import { createHash } from "node:crypto";
import { parse } from "csv-parse/sync";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "~/db/client.server";
import { auditLog, consentEvents, subscribers } from "~/db/schema";
import { csvValue, keysetCsvStream } from "../admin/csv-export.server";
import { attestationText, CONSENT_METHODS, type ConsentAttestation } from "./consent-attestation";
import { recognizeSubscriberCsv, rowAsOurs, type SubscriberCsvFormat } from "./subscriber-csv-formats";
import { newLinkToken } from "./tokens.server";

/** The columns of the export, which the import reads back (any order; only `email` is required). */
export const NEWSLETTER_CSV_COLUMNS = ["email", "first_name", "last_name", "status", "source", "subscribed_at", "confirmed_at"] as const;
type Column = (typeof NEWSLETTER_CSV_COLUMNS)[number];

const BATCH = 2000;
export const IMPORT_MAX_ROWS = 500_000;

/** The e-mail list as CSV, oldest first (the import reads it back). */
export function newsletterCsvStream(db: Db): ReadableStream<Uint8Array> {
  const iso = (column: string) => sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);
  return keysetCsvStream<Record<Column | "id", string | null>, { at: string; id: string }>({
    columns: NEWSLETTER_CSV_COLUMNS,
    page: async (after) =>
      (
        await db.execute<Record<Column | "id", string | null>>(sql`
          SELECT id, email, first_name, last_name, status, source, ${iso("created_at")} AS subscribed_at, ${iso("confirmed_at")} AS confirmed_at
          FROM subscribers
          WHERE channel = 'email' ${after ? sql`AND (created_at, id) > (${after.at}::timestamptz, ${after.id}::uuid)` : sql``}
          ORDER BY created_at, id LIMIT ${BATCH}`)
      ).rows,
    fields: (row) => NEWSLETTER_CSV_COLUMNS.map((column) => row[column]),
    cursorOf: (row) => ({ at: String(row.subscribed_at), id: String(row.id) }),
  });
}

const Timestamp = z.iso.datetime({ offset: true, local: false, precision: undefined }).or(z.iso.datetime());

const ImportRowSchema = z.object({
  email: z.email("not a valid e-mail address").max(254).transform((value) => value.toLowerCase()),
  first_name: z.string().max(100, "first name longer than 100 characters").default(""),
  last_name: z.string().max(100, "last name longer than 100 characters").default(""),
  status: z.enum(["active", "pending", "unsubscribed", "expired", "bounced", "complained"], "status must be active, pending, unsubscribed, expired, bounced or complained").default("active"),
  source: z.enum(["newsletter", "opt-in", "sms-keyword", "import"], "unknown source").default("import"),
  subscribed_at: z.union([z.literal(""), Timestamp], "subscribed_at is not an ISO 8601 time").default(""),
  confirmed_at: z.union([z.literal(""), Timestamp], "confirmed_at is not an ISO 8601 time").default(""),
});

export type ImportRefusal = { line: number; email: string; reason: string };
export type ImportReport =
  | { ok: true; rows: number; imported: number; alreadyListed: number; refused: ImportRefusal[]; format: SubscriberCsvFormat["name"]; ignoredColumns: string[]; phoneColumns: string[] }
  | { ok: false; message: string };

/**
 * Imports a subscriber CSV (the export's columns) after an admin confirmed the people opted in.
 * Every refused row is reported with its line and reason. An address already on the list is never
 * changed: an import cannot re-subscribe someone who left or whose mail bounced. Each imported
 * person gets a consent event naming the file and who imported it.
 */
export async function importNewsletterCsv(
  db: Db,
  input: { csv: string; fileName: string; actor: string; confirmedOptIn: boolean; attestation?: ConsentAttestation },
): Promise<ImportReport> {
  if (!input.confirmedOptIn) return { ok: false, message: "Confirm that everyone in the file opted in to receive the newsletter." };
  const attested = input.attestation ? attestationText(input.attestation, input.actor) : null;
  if (input.attestation && !attested) return { ok: false, message: `Say how everyone in the file gave consent: ${CONSENT_METHODS.map((method) => method.label).join("; ")}.` };
  let records: string[][];
  try {
    records = parse(input.csv, { bom: true, skip_empty_lines: true, relax_column_count: true, trim: false });
  } catch (error) {
    return { ok: false, message: `The file is not valid CSV: ${(error as Error).message.slice(0, 200)}` };
  }
  const format = recognizeSubscriberCsv(records[0] ?? []);
  if (!format) return { ok: false, message: "The first line must name the columns, with one called “email” (or “E-mail”, “Email address”)." };
  if (records.length - 1 > IMPORT_MAX_ROWS) return { ok: false, message: `At most ${IMPORT_MAX_ROWS.toLocaleString("en-US")} rows per file.` };
  const width = format.columns.length;

  const refused: ImportRefusal[] = [];
  const seen = new Set<string>();
  const valid: { line: number; row: z.infer<typeof ImportRowSchema> }[] = [];
  records.slice(1).forEach((record, index) => {
    const line = index + 2;
    const values = record.map((value) => csvValue(value));
    const emailAt = format.columns.indexOf("email");
    if (record.length !== width) return refused.push({ line, email: String(values[emailAt] ?? ""), reason: `has ${record.length} fields, the header ${width}` });
    if (values.some((value) => value.includes("\u0000"))) return refused.push({ line, email: "", reason: "contains a NUL character" });
    const mapped = rowAsOurs(format, values);
    if ("skip" in mapped) return refused.push({ line, email: String(values[emailAt] ?? "").slice(0, 254), reason: mapped.skip });
    // An empty optional field means "not given" (its default), as in the export of a row without it.
    const given = Object.fromEntries(Object.entries(mapped.row).filter(([name, value]) => name === "email" || value !== ""));
    const parsed = ImportRowSchema.safeParse(given);
    if (!parsed.success) return refused.push({ line, email: String(mapped.row.email ?? "").slice(0, 254), reason: parsed.error.issues[0]!.message });
    if (seen.has(parsed.data.email)) return refused.push({ line, email: parsed.data.email, reason: "appears earlier in the file" });
    seen.add(parsed.data.email);
    valid.push({ line, row: parsed.data });
  });

  const fileSha256 = createHash("sha256").update(input.csv).digest("hex");
  let imported = 0;
  let alreadyListed = 0;
  await db.transaction(async (tx) => {
    for (let start = 0; start < valid.length; start += BATCH) {
      const chunk = valid.slice(start, start + BATCH);
      const inserted = await tx
        .insert(subscribers)
        .values(
          chunk.map(({ row }) => ({
            channel: "email" as const,
            email: row.email,
            firstName: row.first_name,
            lastName: row.last_name,
            status: row.status,
            source: row.source,
            emailToken: newLinkToken(),
            // As text into PostgreSQL: a JavaScript Date would drop the microseconds.
            confirmedAt: row.confirmed_at ? sql`${row.confirmed_at}::timestamptz` : null,
            ...(row.subscribed_at ? { createdAt: sql`${row.subscribed_at}::timestamptz` } : {}),
          })),
        )
        .onConflictDoNothing({ target: subscribers.email, where: sql`${subscribers.channel} = 'email'` })
        .returning({ id: subscribers.id, email: subscribers.email });
      const insertedEmails = new Set(inserted.map((row) => row.email));
      for (const { line, row } of chunk) {
        if (!insertedEmails.has(row.email)) {
          alreadyListed++;
          refused.push({ line, email: row.email, reason: "already on the list (left unchanged)" });
        }
      }
      if (inserted.length > 0) {
        await tx.insert(consentEvents).values(
          inserted.map((row) => ({
            subscriberId: row.id,
            channel: "email" as const,
            action: "email_import" as const,
            email: row.email,
            source: `import:${input.fileName.slice(0, 100)}`,
            referrer: `imported by ${input.actor}`,
            // The operator's word on how these people gave consent, on each one's evidence.
            ...(attested ? { consentText: attested, consentVersion: "import-attestation", consentTextSha256: createHash("sha256").update(attested).digest("hex") } : {}),
          })),
        );
      }
      imported += inserted.length;
    }
    await tx.insert(auditLog).values({
      actor: input.actor,
      action: "newsletter.import",
      entity: "subscribers",
      after: JSON.stringify({ file: input.fileName, sha256: fileSha256, rows: records.length - 1, imported, refused: refused.length }),
    });
  });
  refused.sort((a, b) => a.line - b.line);
  return { ok: true, rows: records.length - 1, imported, alreadyListed, refused, format: format.name, ignoredColumns: format.ignored, phoneColumns: format.phoneColumns };
}
