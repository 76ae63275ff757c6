import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, dncImports } from "~/db/schema";
import { commandLineActor, describeChange } from "~/lib/audit-texts";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { importDncFile, parseDncLine } from "./import.server";
import { dncDataAgeDays, latestDncDataDate, lookupDnc } from "./dnc.server";

describe("parseDncLine", () => {
  it.each([
    ["212,4567890", "2124567890"],
    ["2124567890", "2124567890"],
    [" 212,4567890 \r", "2124567890"],
    ["12124567890", "2124567890"],
    ["(212) 456-7890", "2124567890"],
  ])("reads %j", (line, expected) => expect(parseDncLine(line)).toBe(expected));
  it.each(["", "hello", "212,456789", "112,4567890", "212-4567-890x", "21245678901"])("refuses %j", (line) =>
    expect(parseDncLine(line)).toBeNull(),
  );
});

/** What `npm run dnc:import` writes for the system user `ops` (scripts/command-actor.ts). */
const ACTOR = commandLineActor("dnc:import", "ops");

describe.each(DB_KINDS)("Do-Not-Call import on %s", (kind) => {
  const database = useTestDatabase(kind);
  const dir = mkdtempSync(path.join(tmpdir(), "dnc-"));

  it("loads good lines, reports bad ones with their line numbers, and is idempotent", async () => {
    const file = path.join(dir, "full.txt");
    const good = Array.from({ length: 25_000 }, (_, i) => `212,${String(4_000_000 + i)}`);
    writeFileSync(file, [...good.slice(0, 3), "not a number", ...good.slice(3), "212,12", "3105551234"].join("\n"));
    const progress: number[] = [];
    const first = await importDncFile(database.db, file, { mode: "add", dataDate: "2026-11-20", actor: ACTOR, onProgress: (p) => progress.push(p.lines) });
    expect(first).toMatchObject({ lines: 25_003, changed: 25_001, badLines: 2, dataDate: "2026-11-20" });
    expect(first.badLineSamples).toEqual([
      { line: 4, text: "not a number" },
      { line: 25_002, text: "212,12" },
    ]);
    expect(progress.length).toBeGreaterThanOrEqual(3);
    const again = await importDncFile(database.db, file, { mode: "add", dataDate: "2026-11-21", actor: ACTOR });
    expect(again.changed).toBe(0);
    const total = await database.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM dnc_numbers WHERE source = 'federal'`);
    expect(total.rows[0]!.n).toBe(25_001);
    expect(await lookupDnc(database.db, "2124000005")).toMatchObject({ federal: true, internal: false });
    expect(await latestDncDataDate(database.db)).toBe("2026-11-21");
    expect(await database.db.select().from(dncImports)).toHaveLength(2);
    // Each file in the audit log, as an upload at /admin/dnc is, naming the command line.
    const audit = await database.db.select().from(auditLog).where(eq(auditLog.entity, "dnc_numbers")).orderBy(auditLog.id);
    expect(audit.map(({ actor, action }) => ({ actor, action }))).toEqual([
      { actor: ACTOR, action: "dnc.upload_add" },
      { actor: ACTOR, action: "dnc.upload_add" },
    ]);
    expect(JSON.parse(audit[0]!.after!)).toMatchObject({ file: "full.txt", dataDate: "2026-11-20", lines: 25_003, changed: 25_001, badLines: 2, sha256: first.sha256 });
    expect(describeChange(audit[0]!, { noun: "the Do-Not-Call list" })).toMatchObject({ actor: "The dnc:import command (run by ops)", lead: "added 25,001 numbers to ", tail: " from full.txt" });
  });

  it("removes the numbers of a change file with --remove", async () => {
    const file = path.join(dir, "remove.txt");
    writeFileSync(file, "2124000005\n212,4000006\n2129999999\n");
    const result = await importDncFile(database.db, file, { mode: "remove", dataDate: "2026-11-22", actor: ACTOR });
    expect(result.changed).toBe(2);
    const [entry] = await database.db.select().from(auditLog).where(eq(auditLog.action, "dnc.upload_remove"));
    expect(entry).toMatchObject({ actor: ACTOR, entity: "dnc_numbers" });
    expect(JSON.parse(entry!.after!)).toMatchObject({ file: "remove.txt", changed: 2 });
    expect(await lookupDnc(database.db, "2124000005")).toMatchObject({ federal: false });
  });
});

describe("dncDataAgeDays", () => {
  it("counts whole days since the data date", () => {
    expect(dncDataAgeDays("2026-10-01", new Date("2026-11-02T12:00:00Z"))).toBe(32);
    expect(dncDataAgeDays(null)).toBeNull();
  });
});
