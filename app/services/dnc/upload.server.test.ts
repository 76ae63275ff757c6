import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, dncImports, dncUploadRows } from "~/db/schema";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { createDncUpload, DNC_APPLY_CHUNK, getDncUpload, resumeDncUploads, runDncUpload } from "./upload.server";

describe.each(DB_KINDS)("Do-Not-Call upload on %s", { timeout: 30_000 }, (kind) => {
  const database = useTestDatabase(kind);
  const dir = mkdtempSync(path.join(tmpdir(), "dnc-upload-"));
  const federal = async () =>
    Number((await database.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM dnc_numbers WHERE source = 'federal'`)).rows[0]!.n);
  const start = async (file: string, mode: "add" | "remove" = "add") =>
    createDncUpload(database.db, { fileName: path.basename(file), mode, dataDate: "2026-11-20", bytesTotal: 1, actor: "admin@example.com" });

  it("stages a plain file, then applies it in one go with its import record, audit entry and bad-line report", async () => {
    const file = path.join(dir, "area-212.txt");
    writeFileSync(file, ["212,4000001", "junk line", "212,4000002", "2124000002", "", "212,12"].join("\r\n"));
    const id = await start(file);
    const upload = await runDncUpload(database.db, id, file, "abc123");
    expect(upload).toMatchObject({ state: "done", lines: 6, changed: 2, badLines: 2, error: null });
    expect(upload.badLineSamples).toEqual([
      { line: 2, text: "junk line" },
      { line: 6, text: "212,12" },
    ]);
    expect(upload.bytesRead).toBe(upload.bytesTotal);
    expect(await federal()).toBe(2);
    expect(existsSync(file)).toBe(false);
    expect(await database.db.select().from(dncUploadRows)).toEqual([]);
    const [record] = await database.db.select().from(dncImports).where(eq(dncImports.fileName, "area-212.txt"));
    expect(record).toMatchObject({ sha256: "abc123", mode: "add", dataDate: "2026-11-20", lines: 6, changed: 2, badLines: 2 });
    const audit = await database.db.select().from(auditLog).where(eq(auditLog.action, "dnc.upload_add"));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actor).toBe("admin@example.com");
  });

  it("reads every file of a .zip download, and removes a change file's deletions", async () => {
    writeFileSync(path.join(dir, "a.txt"), "212,4000003\n212,4000004\n");
    writeFileSync(path.join(dir, "b.txt"), "212,4000005\n");
    const zip = path.join(dir, "dnc.zip");
    execFileSync("zip", ["-q", "-j", zip, path.join(dir, "a.txt"), path.join(dir, "b.txt")]);
    const added = await runDncUpload(database.db, await start(zip), zip, "z");
    expect(added).toMatchObject({ state: "done", lines: 3, changed: 3, badLines: 0 });
    expect(await federal()).toBe(5);

    const changes = path.join(dir, "deletions.txt");
    writeFileSync(changes, "212,4000001\n212,4000009\n");
    const removed = await runDncUpload(database.db, await start(changes, "remove"), changes, "r");
    expect(removed).toMatchObject({ state: "done", lines: 2, changed: 1 });
    expect(await federal()).toBe(4);
  });

  it("a damaged .zip or a file of no numbers fails with a reason and changes nothing", async () => {
    const before = await federal();
    const damaged = path.join(dir, "damaged.zip");
    writeFileSync(damaged, Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]));
    const failed = await runDncUpload(database.db, await start(damaged), damaged, "d");
    expect(failed.state).toBe("failed");
    expect(failed.error).toMatch(/zip/);

    const notDnc = path.join(dir, "letter.txt");
    writeFileSync(notDnc, "Dear sir,\nplease find attached\n");
    const refused = await runDncUpload(database.db, await start(notDnc), notDnc, "n");
    expect(refused).toMatchObject({ state: "failed", error: expect.stringMatching(/No line/) });
    expect(await federal()).toBe(before);
    expect(await database.db.select().from(dncUploadRows)).toEqual([]);
    expect(existsSync(damaged) || existsSync(notDnc)).toBe(false);
  });

  it("applies chunk by chunk when asked (the embedded database), with the same outcome", async () => {
    const before = await federal();
    const file = path.join(dir, "chunked.txt");
    const count = DNC_APPLY_CHUNK * 2 + 7;
    writeFileSync(file, Array.from({ length: count }, (_, i) => `213,${3_000_000 + i}`).join("\n"));
    const upload = await runDncUpload(database.db, await start(file), file, "c", { applyInChunks: true });
    expect(upload).toMatchObject({ state: "done", lines: count, changed: count, badLines: 0 });
    expect(await federal()).toBe(before + count);
    expect(await database.db.select().from(dncUploadRows)).toEqual([]);
    const [record] = await database.db.select().from(dncImports).where(eq(dncImports.fileName, "chunked.txt"));
    expect(record).toMatchObject({ sha256: "c", changed: count });
  });

  it("finishes at start an upload that a stop interrupted while it was being applied", async () => {
    const before = await federal();
    const id = await start(path.join(dir, "interrupted.txt"));
    const staged = DNC_APPLY_CHUNK + 5;
    await database.db.execute(sql`INSERT INTO dnc_upload_rows (upload_id, phone) SELECT ${id}, (2140000000 + g)::text FROM generate_series(1, ${staged}) g`);
    // A first chunk was applied (and counted) before the stop.
    await database.db.execute(sql`INSERT INTO dnc_numbers (phone, source) VALUES ('2149999999', 'federal')`);
    await database.db.execute(sql`UPDATE dnc_uploads SET state = 'applying', sha256 = 'i', lines = ${staged + 1}, changed = 1, updated_at = now() - interval '1 hour' WHERE id = ${id}`);
    expect((await getDncUpload(database.db, id))!.state).toBe("applying");
    expect(await resumeDncUploads(database.db)).toBe(1);
    expect(await getDncUpload(database.db, id)).toMatchObject({ state: "done", changed: staged + 1 });
    expect(await federal()).toBe(before + staged + 1);
    const [record] = await database.db.select().from(dncImports).where(eq(dncImports.fileName, "interrupted.txt"));
    expect(record).toMatchObject({ sha256: "i", lines: staged + 1, changed: staged + 1 });
    expect(await resumeDncUploads(database.db)).toBe(0);
  });

  it("an upload cut off by a restart shows as failed and its staged rows are cleared", async () => {
    const before = await federal();
    const id = await start(path.join(dir, "cut.txt"));
    await database.db.insert(dncUploadRows).values({ uploadId: id, phone: "2124000099" });
    await database.db.execute(sql`UPDATE dnc_uploads SET updated_at = now() - interval '10 minutes' WHERE id = ${id}`);
    expect((await getDncUpload(database.db, id))!.state).toBe("failed");
    await start(path.join(dir, "next.txt"));
    expect(await database.db.select().from(dncUploadRows).where(eq(dncUploadRows.uploadId, id))).toEqual([]);
    expect(await federal()).toBe(before);
  });
});
