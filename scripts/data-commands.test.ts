import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { embeddedDatabaseDir } from "~/db/data-dir.server";
import { auditLog } from "~/db/schema";
import { commandLineActor } from "~/lib/audit-texts";

const ROOT = path.resolve(import.meta.dirname, "..");

/** An npm script's file run as `npm run` runs it (tsx), on the embedded database of `DATA_DIR`. */
async function run(script: string, args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["--import", "tsx", path.join("scripts", script), ...args], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: "development", DATABASE_URL: "", AUTH_SECRET: "data-commands-test-secret-0123456789-abcdefgh", LOG_LEVEL: "warn", ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** What a command writes as its actor for this machine's user (scripts/command-actor.ts). */
const actorOf = (command: string) => commandLineActor(command, userInfo().username);

/**
 * The commands that take a data folder take the DATA_DIR the server runs with (decision 129), and
 * each command that changes data says so in the audit log.
 */
describe("the commands on a DATA_DIR", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "data-commands-"));
  const source = path.join(dir, "source");
  const target = path.join(dir, "target");
  const backup = path.join(dir, "backup.jsonl.gz");
  const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };

  beforeAll(async () => {
    const database = await openDatabase({ dataDir: embeddedDatabaseDir(source) });
    await database.db.execute(sql`INSERT INTO dnc_numbers (phone, source) VALUES ('2125550101', 'federal'), ('2125550102', 'internal')`);
    await database.close();
  }, 60_000);

  afterAll(async () => {
    const { closeDatabase } = await import("~/db/database.server");
    await closeDatabase();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it("db:import --data-dir DATA_DIR loads the file where the server started on that DATA_DIR reads it, and records who did", async () => {
    const exported = await run("db-export.ts", [backup], { DATA_DIR: source });
    expect(exported.code, exported.stderr).toBe(0);
    const imported = await run("db-import.ts", [backup, "--data-dir", target], {});
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain(`Importing into the embedded database of DATA_DIR ${target}, in ${path.join(target, "pglite")}`);
    expect(imported.stdout).toContain(`Start the site with DATA_DIR=${target} to serve this data.`);

    // The server's own way to its database (app/db/database.server.ts), given that DATA_DIR.
    process.env.DATA_DIR = target;
    process.env.DATABASE_URL = "";
    const { getDatabase, closeDatabase } = await import("~/db/database.server");
    const { db } = await getDatabase();
    const numbers = await db.execute<{ phone: string }>(sql`SELECT phone FROM dnc_numbers ORDER BY phone`);
    expect(numbers.rows.map((row) => row.phone)).toEqual(["2125550101", "2125550102"]);
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, "database.import"));
    expect(entry).toMatchObject({ actor: actorOf("db:import"), entity: "database" });
    expect(JSON.parse(entry!.after!)).toMatchObject({ file: "backup.jsonl.gz", source: "pglite" });
    await closeDatabase();
  }, 120_000);

  it("the database folder inside DATA_DIR is refused, by every command, saying which folder to give", async () => {
    const inner = path.join(target, "pglite");
    const says = `${inner} is the embedded database's own folder, inside a data folder: give the data folder, ${target}`;
    const importInner = await run("db-import.ts", [backup, "--data-dir", inner], {});
    expect(importInner).toMatchObject({ code: 2, stderr: expect.stringContaining(says) });
    const exportInner = await run("db-export.ts", [path.join(dir, "again.jsonl.gz"), "--data-dir", inner], {});
    expect(exportInner).toMatchObject({ code: 2, stderr: expect.stringContaining(says) });
    // The commands that read DATA_DIR itself, as the server does (and the server refuses it at start).
    const list = path.join(dir, "dnc.txt");
    writeFileSync(list, "2125550103\n");
    const dnc = await run("dnc-import.ts", [list, "--date", "2026-11-20"], { DATA_DIR: inner });
    expect(dnc).toMatchObject({ code: 1, stderr: expect.stringContaining(says) });
    // A folder a new site would use, given as its not yet made database folder.
    const fresh = path.join(dir, "new-site", "pglite");
    const importFresh = await run("db-import.ts", [backup, "--data-dir", fresh], {});
    expect(importFresh).toMatchObject({ code: 2, stderr: expect.stringContaining(`give the data folder, ${path.dirname(fresh)}`) });
  }, 120_000);

  it("dnc:import and admin:create write an audit entry naming the command line", async () => {
    const list = path.join(dir, "dnc-add.txt");
    writeFileSync(list, "2125550104\n212,5550105\nnot a number\n");
    const dnc = await run("dnc-import.ts", [list, "--date", "2026-11-20"], { DATA_DIR: target });
    expect(dnc.code, dnc.stderr).toBe(0);
    const admin = await run("admin-create.ts", ["chief@example.com", "Valley-Forge-1777!"], { DATA_DIR: target });
    expect(admin.code, admin.stderr).toBe(0);

    const database = await openDatabase({ dataDir: embeddedDatabaseDir(target) });
    try {
      const entries = await database.db.select().from(auditLog).where(sql`${auditLog.action} IN ('dnc.upload_add', 'user.create_admin')`).orderBy(auditLog.id);
      expect(entries.map(({ actor, action }) => ({ actor, action }))).toEqual([
        { actor: actorOf("dnc:import"), action: "dnc.upload_add" },
        { actor: actorOf("admin:create"), action: "user.create_admin" },
      ]);
      expect(JSON.parse(entries[0]!.after!)).toMatchObject({ file: "dnc-add.txt", dataDate: "2026-11-20", lines: 3, changed: 2, badLines: 1 });
      expect(entries[1]!.after).toBe("chief@example.com");
    } finally {
      await database.close();
    }
  }, 120_000);
});
