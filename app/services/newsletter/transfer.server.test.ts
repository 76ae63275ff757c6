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

describe.each(DB_KINDS)("subscriber lists from other platforms on %s", (kind) => {
  const database = useTestDatabase(kind);
  const ADMIN = "admin@example.com";

  it("reads Ghost's members export: names split, the e-mail choice as the status, deleted members left out", async () => {
    const { db } = database;
    const csv = [
      "id,email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels,tiers",
      "m1,ghost.one@example.com,Abigail Adams Smith,VIP,true,false,,2024-01-15T10:00:00.000Z,,,",
      "m2,ghost.two@example.com,Ben,,false,false,cus_1,2024-02-01T00:00:00.000Z,,readers,",
      "m3,ghost.gone@example.com,Gone,,true,false,,2024-02-02T00:00:00.000Z,2024-06-01T00:00:00.000Z,,",
    ].join("\n");
    const report = await importNewsletterCsv(db, { csv, fileName: "members.csv", actor: ADMIN, confirmedOptIn: true, attestation: { method: "members", detail: "Ghost members at old-site.example, 2020 to 2026" } });
    expect(report).toMatchObject({ ok: true, format: "Ghost members", imported: 2, ignoredColumns: ["id", "note", "complimentary_plan", "stripe_customer_id", "labels", "tiers"], phoneColumns: [] });
    if (!report.ok) return;
    expect(report.refused).toEqual([{ line: 4, email: "ghost.gone@example.com", reason: "deleted in Ghost" }]);
    const [one] = await db.select().from(subscribers).where(eq(subscribers.email, "ghost.one@example.com"));
    expect(one).toMatchObject({ firstName: "Abigail", lastName: "Adams Smith", status: "active" });
    expect(one!.createdAt.toISOString()).toBe("2024-01-15T10:00:00.000Z");
    const [two] = await db.select().from(subscribers).where(eq(subscribers.email, "ghost.two@example.com"));
    expect(two!.status).toBe("unsubscribed");
    // The operator's attestation is on each person's consent evidence.
    const [event] = await db.select().from(consentEvents).where(eq(consentEvents.email, "ghost.one@example.com"));
    expect(event).toMatchObject({
      action: "email_import",
      consentVersion: "import-attestation",
      consentText: "admin@example.com attested at import: They are members of the old site who chose to receive its e-mails. Ghost members at old-site.example, 2020 to 2026",
    });
    expect(event!.consentTextSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("reads a newsletter plugin's export by its column words, never imports a phone number, and names what it left", async () => {
    const { db } = database;
    const csv = ["E-mail,First name,Last name,Status,Subscribed at,Phone,Shoe size", "plugin.one@example.com,Cal,Lee,subscribed,2023-05-06 07:08:09,+12025550123,9", "plugin.two@example.com,Dee,,unconfirmed,,,"].join("\n");
    const report = await importNewsletterCsv(db, { csv, fileName: "mailpoet.csv", actor: ADMIN, confirmedOptIn: true, attestation: { method: "double-opt-in", detail: "" } });
    expect(report).toMatchObject({ ok: true, format: "a newsletter plugin’s export", imported: 2, ignoredColumns: ["shoe size"], phoneColumns: ["phone"] });
    const [one] = await db.select().from(subscribers).where(eq(subscribers.email, "plugin.one@example.com"));
    expect(one).toMatchObject({ firstName: "Cal", status: "active", phoneE164: null });
    expect(one!.createdAt.toISOString()).toBe("2023-05-06T07:08:09.000Z");
    const [two] = await db.select().from(subscribers).where(eq(subscribers.email, "plugin.two@example.com"));
    expect(two!.status).toBe("pending");
    expect(await db.select().from(subscribers).where(eq(subscribers.channel, "sms"))).toHaveLength(0);
  });

  it("refuses an attestation that names no way consent was given", async () => {
    const { db } = database;
    const report = await importNewsletterCsv(db, { csv: "email\nnew@example.com", fileName: "x.csv", actor: ADMIN, confirmedOptIn: true, attestation: { method: "", detail: "trust me" } });
    expect(report).toMatchObject({ ok: false, message: expect.stringContaining("Say how everyone in the file gave consent") });
    expect(await db.select().from(subscribers).where(eq(subscribers.email, "new@example.com"))).toHaveLength(0);
  });
});
