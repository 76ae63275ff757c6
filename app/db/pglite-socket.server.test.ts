import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatabaseLockedError, openDatabase, type DatabaseHandle } from "./client.server";
import { socketDirFor, socketPathFor, SOCKET_PORT } from "./pglite-socket.server";

// One server-side handle shares its folder; the "command" opens the same folder, finds it locked
// (by this very process here, by the server's PID in real life) and goes through the socket.
describe("the embedded database shared over its private socket", () => {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), "pglite-socket-")), "pglite");
  let server: DatabaseHandle;
  const warnings: string[] = [];

  beforeAll(async () => {
    server = await openDatabase({ dataDir: dir, share: { warn: (message) => warnings.push(message) } });
    await server.db.execute(sql`CREATE TABLE socket_probe (id int PRIMARY KEY, note text)`);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const connect = () => new pg.Client({ host: socketDirFor(dir), port: SOCKET_PORT, user: "postgres", database: "postgres" });

  it("is reachable by the owner only", () => {
    expect(warnings).toEqual([]);
    expect(statSync(socketDirFor(dir)).mode & 0o777).toBe(0o700);
    expect(statSync(socketPathFor(dir)).mode & 0o777).toBe(0o600);
  });

  it("lets a command open the locked folder through the running server", async () => {
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(DatabaseLockedError);
    const command = await openDatabase({ dataDir: dir, viaRunningServer: true });
    try {
      expect(command.kind).toBe("pglite");
      expect(command.viaServer).toBe(true);
      await command.db.execute(sql`INSERT INTO socket_probe VALUES (1, 'from the command')`);
      const seen = await server.db.execute<{ note: string }>(sql`SELECT note FROM socket_probe WHERE id = 1`);
      expect(seen.rows[0]?.note).toBe("from the command");
    } finally {
      await command.close();
    }
  }, 60_000);

  it("keeps the app's queries out of a command's open transaction, and runs them after it", async () => {
    const client = connect();
    await client.connect();
    try {
      await client.query("BEGIN");
      await client.query("INSERT INTO socket_probe VALUES (2, 'uncommitted')");
      let appDone = false;
      const appRead = server.db
        .execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM socket_probe WHERE id = 2`)
        .then((result) => {
          appDone = true;
          return result.rows[0]?.n;
        });
      await new Promise((resolve) => setTimeout(resolve, 200));
      // The app waits for the command's transaction instead of running inside it.
      expect(appDone).toBe(false);
      await client.query("ROLLBACK");
      expect(await appRead).toBe(0);
    } finally {
      await client.end();
    }
  });

  it("keeps a command's statements out of the app's transaction", async () => {
    const client = connect();
    await client.connect();
    try {
      let commandDone = false;
      await server.db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO socket_probe VALUES (3, 'app transaction')`);
        void client.query("INSERT INTO socket_probe VALUES (4, 'command')").then(() => (commandDone = true));
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(commandDone).toBe(false);
        tx.rollback();
      }).catch(() => {});
      await expect.poll(() => commandDone).toBe(true);
      const rows = await server.db.execute<{ id: number }>(sql`SELECT id FROM socket_probe WHERE id IN (3, 4) ORDER BY id`);
      expect(rows.rows.map((row) => row.id)).toEqual([4]);
    } finally {
      await client.end();
    }
  });

  it("undoes the transaction of a command that went away and gives the session back", async () => {
    const client = connect();
    client.on("error", () => {});
    await client.connect();
    await client.query("BEGIN");
    await client.query("INSERT INTO socket_probe VALUES (5, 'lost')");
    // The process dies: the socket closes without COMMIT.
    (client as unknown as { connection: { stream: { destroy: () => void } } }).connection.stream.destroy();
    const rows = await server.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM socket_probe WHERE id = 5`);
    expect(rows.rows[0]?.n).toBe(0);
    await server.db.execute(sql`INSERT INTO socket_probe VALUES (6, 'app goes on')`);
  });

  it("serves a second command after the first, and reports the database's own errors", async () => {
    const command = await openDatabase({ dataDir: dir, viaRunningServer: true });
    try {
      await expect(command.db.execute(sql`INSERT INTO socket_probe VALUES (6, 'duplicate')`)).rejects.toThrow();
      const rows = await command.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM socket_probe`);
      expect(rows.rows[0]?.n).toBe(3);
    } finally {
      await command.close();
    }
  }, 60_000);
});

describe("a data folder whose socket path would be too long", () => {
  it("runs the site without the socket and says why", async () => {
    const base = mkdtempSync(path.join(tmpdir(), "pglite-socket-long-"));
    const dir = path.join(base, "a-folder-name-long-enough-to-pass-the-unix-socket-path-limit-of-about-100-bytes", "pglite");
    const warnings: string[] = [];
    const server = await openDatabase({ dataDir: dir, share: { warn: (message) => warnings.push(message) } });
    try {
      expect(warnings.join("\n")).toMatch(/too long for a Unix socket/);
      await server.ping();
      await expect(openDatabase({ dataDir: dir, viaRunningServer: true })).rejects.toThrow(DatabaseLockedError);
    } finally {
      await server.close();
    }
  }, 60_000);
});
