import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DatabaseLockedError, LOCK_OWNER_GRACE_MS, openDatabase, UnsafeDatabaseSettingsError } from "./client.server";
import { isDatabaseUnavailable } from "./unavailable";

const freshDir = () => path.join(mkdtempSync(path.join(tmpdir(), "pglite-lock-")), "pglite");

describe("the embedded database lock", () => {
  it("refuses a second opener of the same folder and frees the folder on close", async () => {
    const dir = freshDir();
    const first = await openDatabase({ dataDir: dir });
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(DatabaseLockedError);
    expect(readFileSync(`${dir}.lock`, "utf8")).toBe(String(process.pid));
    await first.close();
    expect(existsSync(`${dir}.lock`)).toBe(false);
    const again = await openDatabase({ dataDir: dir });
    await again.close();
  }, 60_000);

  it("refuses a folder locked by another live process once the grace period is over", async () => {
    const dir = freshDir();
    const other = spawn("sleep", ["30"]);
    try {
      writeFileSync(`${dir}.lock`, String(other.pid));
      const started = Date.now();
      await expect(openDatabase({ dataDir: dir })).rejects.toThrow(`is in use by process ${other.pid}`);
      expect(Date.now() - started).toBeGreaterThanOrEqual(LOCK_OWNER_GRACE_MS);
    } finally {
      other.kill();
    }
  }, 30_000);

  it("waits for an owner that goes away during the grace period (a server killed a moment ago) and takes the folder", async () => {
    const dir = freshDir();
    const other = spawn("sleep", ["30"]);
    writeFileSync(`${dir}.lock`, String(other.pid));
    setTimeout(() => other.kill("SIGKILL"), 800);
    const handle = await openDatabase({ dataDir: dir });
    expect(other.exitCode ?? other.signalCode).toBe("SIGKILL");
    expect(readFileSync(`${dir}.lock`, "utf8")).toBe(String(process.pid));
    await handle.close();
  }, 60_000);

  it("takes over the lock of a zombie (exited, never reaped by its parent)", async () => {
    const dir = freshDir();
    // The shell starts a short sleep in the background, prints its PID, then becomes a long sleep,
    // which never waits for children: the short one exits and stays a zombie while the long one runs.
    const parent = spawn("sh", ["-c", "sleep 0.2 & echo $!; exec sleep 30"]);
    try {
      const zombie = Number(await new Promise<string>((resolve) => parent.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString()))));
      await expect.poll(() => readFileSync(`/proc/${zombie}/stat`, "utf8").split(") ")[1]![0], { timeout: 5_000 }).toBe("Z");
      writeFileSync(`${dir}.lock`, String(zombie));
      // The zombie outlasts the grace period (sleep 30): a live owner would be refused.
      const handle = await openDatabase({ dataDir: dir });
      expect(readFileSync(`/proc/${zombie}/stat`, "utf8").split(") ")[1]![0]).toBe("Z");
      expect(readFileSync(`${dir}.lock`, "utf8")).toBe(String(process.pid));
      await handle.close();
    } finally {
      parent.kill();
    }
  }, 60_000);

  it("takes over the lock of a process that died (kill -9 leaves the file behind)", async () => {
    const dir = freshDir();
    const dead = spawn("true");
    await new Promise((resolve) => dead.on("exit", resolve));
    writeFileSync(`${dir}.lock`, String(dead.pid));
    const handle = await openDatabase({ dataDir: dir });
    expect(readFileSync(`${dir}.lock`, "utf8")).toBe(String(process.pid));
    await handle.close();
  }, 60_000);
});

describe("migrations on PostgreSQL", () => {
  it("run once when three processes start together (advisory lock), and again changes nothing", async () => {
    const { createPostgresDatabase } = await import("../../tests/support/test-db");
    const created = await createPostgresDatabase();
    try {
      const handles = await Promise.all([1, 2, 3].map(() => openDatabase({ url: created.url, connectTimeoutMs: 60_000 })));
      const [first] = handles;
      const applied = await first!.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`);
      expect(applied.rows[0]!.n).toBeGreaterThanOrEqual(3);
      await Promise.all(handles.map((handle) => handle.close()));
      const again = await openDatabase({ url: created.url, connectTimeoutMs: 60_000 });
      const after = await again.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`);
      expect(after.rows[0]!.n).toBe(applied.rows[0]!.n);
      await again.close();
    } finally {
      await created.drop();
    }
  }, 60_000);
});

describe("a PostgreSQL session ended by the server", () => {
  // Without a listener on checked-out clients, the error arrives as an uncaught exception: vitest
  // reports it and fails the run, as it ended the server's process in production.
  it("between two queries of a transaction fails that transaction as unavailable, and the pool goes on", async () => {
    const { createPostgresDatabase, TEST_PG_ADMIN_URL } = await import("../../tests/support/test-db");
    const { default: pg } = await import("pg");
    const created = await createPostgresDatabase();
    const handle = await openDatabase({ url: created.url, connectTimeoutMs: 60_000 });
    const admin = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
    await admin.connect();
    try {
      const failure = await handle.db
        .transaction(async (tx) => {
          const { rows } = await tx.execute<{ pid: number }>(sql`SELECT pg_backend_pid() AS pid`);
          await admin.query("SELECT pg_terminate_backend($1)", [rows[0]!.pid]);
          // The server's goodbye arrives while no query runs on this session.
          await new Promise((resolve) => setTimeout(resolve, 300));
          await tx.execute(sql`SELECT 1`);
        })
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(isDatabaseUnavailable(failure)).toBe(true);
      const after = await handle.db.execute<{ n: number }>(sql`SELECT 1 AS n`);
      expect(after.rows[0]!.n).toBe(1);
    } finally {
      await admin.end();
      await handle.close();
      await created.drop();
    }
  }, 60_000);
});

describe("durability settings on PostgreSQL", () => {
  it("refuses a server that may lose confirmed commits when durability is required", async () => {
    const { createPostgresDatabase, TEST_PG_ADMIN_URL } = await import("../../tests/support/test-db");
    const { default: pg } = await import("pg");
    const created = await createPostgresDatabase();
    try {
      const admin = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
      await admin.connect();
      await admin.query(`ALTER DATABASE ${created.name} SET synchronous_commit = off`);
      await admin.end();
      await expect(openDatabase({ url: created.url, requireDurability: true, connectTimeoutMs: 60_000 })).rejects.toThrow(UnsafeDatabaseSettingsError);
      await expect(openDatabase({ url: created.url, requireDurability: true, connectTimeoutMs: 60_000 })).rejects.toThrow(/synchronous_commit=off/);
      const lenient = await openDatabase({ url: created.url, connectTimeoutMs: 60_000 });
      await lenient.close();
    } finally {
      await created.drop();
    }
  });
});
