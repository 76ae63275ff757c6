import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, consentEvents, subscribers } from "~/db/schema";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { importNewsletterCsv, newsletterCsvStream } from "./transfer.server";

async function readAll(stream: ReadableStream<Uint8Array>) {
  return new Response(stream).text();
}

const FILE = [
  "email,first_name,last_name,status,source,subscribed_at,confirmed_at",
  "Reader.One@Example.com,Ann,Jones,active,newsletter,2025-01-02T03:04:05.123456Z,2025-01-02T04:00:00.000000Z",
  'two@example.com,"Smith, Jr.","O\'Neil",unsubscribed,import,2025-02-01T00:00:00.000000Z,',
  "three@example.com,'=HYPERLINK(1),\"multi\nline\",bounced,opt-in,2025-03-01T00:00:00.000000Z,",
  "not-an-email,A,B,active,import,,",
  "reader.one@example.com,Dup,Dup,active,import,,",
  "four@example.com,Four,,sleeping,import,,",
  "five@example.com,Five",
  "six@example.com,,,,,,",
].join("\r\n");

describe.each(DB_KINDS)("newsletter import and export on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("needs the opted-in confirmation and a header with an email column", async () => {
    const { db } = database;
    expect(await importNewsletterCsv(db, { csv: FILE, fileName: "list.csv", actor: "admin@example.com", confirmedOptIn: false })).toMatchObject({ ok: false });
    expect(await importNewsletterCsv(db, { csv: "name\nBob", fileName: "list.csv", actor: "admin@example.com", confirmedOptIn: true })).toMatchObject({ ok: false });
    expect(await importNewsletterCsv(db, { csv: "email,shoe_size\na@example.com,9", fileName: "x.csv", actor: "a", confirmedOptIn: true })).toMatchObject({ ok: false, message: expect.stringContaining("shoe_size") });
    expect(await db.select().from(subscribers)).toHaveLength(0);
  });

  it("imports the valid rows, reports every refused one with its line, and never changes a listed address", async () => {
    const { db } = database;
    await db.insert(subscribers).values({ channel: "email", email: "six@example.com", firstName: "Six", lastName: "", status: "unsubscribed", source: "newsletter", emailToken: "t".repeat(43) });
    const report = await importNewsletterCsv(db, { csv: FILE, fileName: "list.csv", actor: "admin@example.com", confirmedOptIn: true });
    expect(report).toMatchObject({ ok: true, rows: 8, imported: 3, alreadyListed: 1 });
    if (!report.ok) return;
    expect(report.refused.map((row) => [row.line, row.reason])).toEqual([
      [5, "not a valid e-mail address"],
      [6, "appears earlier in the file"],
      [7, expect.stringContaining("status must be")],
      [8, "has 2 fields, the header 7"],
      [9, "already on the list (left unchanged)"],
    ]);
    const [six] = await db.select().from(subscribers).where(eq(subscribers.email, "six@example.com"));
    expect(six!.status).toBe("unsubscribed");
    const [three] = await db.select().from(subscribers).where(eq(subscribers.email, "three@example.com"));
    expect(three).toMatchObject({ firstName: "=HYPERLINK(1)", lastName: "multi\nline", status: "bounced" });
    const events = await db.select().from(consentEvents).where(eq(consentEvents.action, "email_import"));
    expect(events).toHaveLength(3);
    expect(events[0]).toMatchObject({ source: "import:list.csv", referrer: "imported by admin@example.com" });
    expect(await db.select().from(auditLog).where(eq(auditLog.action, "newsletter.import"))).toHaveLength(1);
  });

  it("exports every e-mail subscriber, formula-safe, with microsecond times", async () => {
    const { db } = database;
    const lines = (await readAll(newsletterCsvStream(db))).split("\r\n");
    expect(lines[0]).toBe("email,first_name,last_name,status,source,subscribed_at,confirmed_at");
    expect(lines.join("\n")).toContain("'=HYPERLINK(1)");
    expect(lines).toContain("reader.one@example.com,Ann,Jones,active,newsletter,2025-01-02T03:04:05.123456Z,2025-01-02T04:00:00.000000Z");
  });
});

describe("newsletter export round trip between two installs", () => {
  const source = useTestDatabase("pglite");
  const target = useTestDatabase("pglite");

  it("is exact", async () => {
    await importNewsletterCsv(source.db, { csv: FILE, fileName: "list.csv", actor: "admin@example.com", confirmedOptIn: true });
    const exported = await readAll(newsletterCsvStream(source.db));
    const report = await importNewsletterCsv(target.db, { csv: exported, fileName: "export.csv", actor: "admin@example.com", confirmedOptIn: true });
    expect(report).toMatchObject({ ok: true, imported: 4, refused: [] });
    expect(await readAll(newsletterCsvStream(target.db))).toBe(exported);
  });
});
