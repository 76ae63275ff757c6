import { closeSync, existsSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { findServerSocket, shareOverSocket, SOCKET_PORT } from "./pglite-socket.server";
import * as schema from "./schema";
import { seedDatabase } from "./seed.server";

/** Both drivers expose the same drizzle query API; app code only sees this type. */
export type Db = NodePgDatabase<typeof schema>;
export type DbKind = "pglite" | "postgres";

export type DatabaseHandle = {
  kind: DbKind;
  /** The embedded database reached through the running server's socket. */
  viaServer?: boolean;
  db: Db;
  /** Cheap round trip for readiness checks. */
  ping: () => Promise<void>;
  close: () => Promise<void>;
};

export type OpenOptions = {
  /** postgres:// URL; without it, embedded PGlite. */
  url?: string;
  /** PGlite data folder, or "memory" for a throw-away database (tests). */
  dataDir?: string;
  /**
   * With dataDir "memory": start from this PGlite dump (`dumpDataDir`) of a migrated database
   * instead of running initdb and every migration (tests: ~0.7 s instead of ~3 s a database).
   */
  pgliteImage?: Blob;
  migrationsFolder?: string;
  /** Brand used in the seeded welcome text. */
  siteName?: string;
  /** Refuse a PostgreSQL server that may lose committed transactions (production). */
  requireDurability?: boolean;
  /**
   * How long a new PostgreSQL connection may take (default 5 s). Tests that create databases
   * side by side on a loaded machine give more: CREATE DATABASE holds others' connects back.
   */
  connectTimeoutMs?: number;
  /**
   * The server: share the embedded database with the app's commands over a private Unix socket
   * (pglite-socket.server.ts). Warnings about it go to this function.
   */
  share?: { warn: (message: string) => void };
  /**
   * A command: when a running server holds the embedded database, reach it through its socket
   * instead of refusing.
   */
  viaRunningServer?: boolean;
};

const MIGRATION_LOCK_KEY = 72_410_615; // any constant shared by every process of this app

export class DatabaseLockedError extends Error {
  override name = "DatabaseLockedError";
}

export class UnsafeDatabaseSettingsError extends Error {
  override name = "UnsafeDatabaseSettingsError";
}

// A consent record the site confirmed must survive a crash of the database server: PostgreSQL
// promises that only with these on (off loses up to ~600 ms of commits, or corrupts on power loss).
const DURABILITY_SETTINGS = ["fsync", "synchronous_commit", "full_page_writes"] as const;

async function checkDurability(pool: pg.Pool) {
  const off: string[] = [];
  for (const setting of DURABILITY_SETTINGS) {
    const { rows } = await pool.query<Record<string, string>>(`SHOW ${setting}`);
    if (Object.values(rows[0] ?? {})[0] !== "on") off.push(setting);
  }
  if (off.length > 0) {
    throw new UnsafeDatabaseSettingsError(
      `PostgreSQL runs with ${off.map((name) => `${name}=off`).join(", ")}: confirmed sign-ups could be lost in a crash. Turn ${off.join(", ")} back on.`,
    );
  }
}

/**
 * PGlite has no lock of its own and two processes on one folder corrupt it: take a lock file
 * holding our PID, and take over a stale one whose process is gone.
 */
const heldLocks = new Set<string>();

/**
 * How long a start waits for the lock's owner to go before refusing. A server killed outright
 * (kill -9 of `node server.mjs`) takes its server process with it a moment later (decision 137):
 * a supervisor that restarts at once must find the folder free, not a refusal.
 */
export const LOCK_OWNER_GRACE_MS = 5_000;

async function lockDataDir(dir: string, graceMs: number) {
  const lockFile = `${path.resolve(dir)}.lock`;
  if (heldLocks.has(lockFile)) {
    throw new DatabaseLockedError(`The embedded database in ${dir} is already open in this process.`);
  }
  mkdirSync(path.dirname(lockFile), { recursive: true });
  const giveUpAt = Date.now() + graceMs;
  for (;;) {
    try {
      const fd = openSync(lockFile, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      heldLocks.add(lockFile);
      return () => {
        heldLocks.delete(lockFile);
        if (existsSync(lockFile) && readFileSync(lockFile, "utf8") === String(process.pid)) unlinkSync(lockFile);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number(readFileSync(lockFile, "utf8"));
      // Our own PID in a lock we do not hold is a leftover of a previous process that had our PID.
      if (owner && owner !== process.pid && isAlive(owner)) {
        if (Date.now() >= giveUpAt) {
          throw new DatabaseLockedError(
            `The embedded database in ${dir} is in use by process ${owner}. Stop it first, or set DATABASE_URL to share PostgreSQL between processes.`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      try {
        unlinkSync(lockFile);
      } catch (unlinkError) {
        // Another starter took the stale file away first: try again to take the lock.
        if ((unlinkError as NodeJS.ErrnoException).code !== "ENOENT") throw unlinkError;
      }
    }
  }
}

/**
 * A process that still runs. A zombie (exited, not yet reaped: its parent died first and the
 * container's first process reaps no one) answers signal 0 but holds no files: gone.
 */
function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The state follows the command name in parentheses, which may itself hold spaces or ")".
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true; // No /proc (not Linux): signal 0 is all there is.
  }
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  const migrationsFolder = options.migrationsFolder ?? path.resolve("drizzle");

  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: 10, idleTimeoutMillis: 30_000, connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000 });
    return openPool(pool, "postgres", migrationsFolder, options);
  }

  const dataDir = options.dataDir ?? "./data/pglite";
  const inMemory = dataDir === "memory";
  let unlock: () => void;
  try {
    // A command beside a running server goes through its socket at once; only a start waits.
    const graceMs = options.viaRunningServer && findServerSocket(dataDir) ? 0 : LOCK_OWNER_GRACE_MS;
    unlock = inMemory ? () => {} : await lockDataDir(dataDir, graceMs);
  } catch (error) {
    const socketDir = options.viaRunningServer && error instanceof DatabaseLockedError ? findServerSocket(dataDir) : null;
    if (!socketDir) throw error;
    // One connection: the server runs one session's messages at a time anyway.
    const pool = new pg.Pool({ host: socketDir, port: SOCKET_PORT, user: "postgres", database: "postgres", max: 1, connectionTimeoutMillis: 5_000 });
    try {
      return { ...(await openPool(pool, "pglite", migrationsFolder, options)), viaServer: true };
    } catch (socketError) {
      // A refused or missing socket is a server stopping or starting; anything else is the database's answer.
      if (!/^E[A-Z]+$/.test(String((socketError as NodeJS.ErrnoException).code ?? ""))) throw socketError;
      throw new DatabaseLockedError(
        `The embedded database in ${dataDir} is in use by a running server, and its socket did not answer (${(socketError as Error).message}).`,
      );
    }
  }
  try {
    if (!inMemory) mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
    const client = inMemory && options.pgliteImage ? await PGlite.create({ loadDataDir: options.pgliteImage }) : await PGlite.create(inMemory ? undefined : dataDir);
    const db = drizzlePglite(client, { schema, casing: "snake_case" }) as unknown as Db;
    await migratePglite(db as never, { migrationsFolder });
    await seedDatabase(db, options.siteName ?? "Patriot Investor");
    const share = options.share;
    // The site runs without the socket rather than not at all; the commands then say to stop it.
    const socket =
      share && !inMemory
        ? await shareOverSocket(client, dataDir, share.warn).catch((error: Error) => {
            share.warn(`Commands cannot run beside this server: the database socket could not be opened (${error.message}).`);
            return null;
          })
        : null;
    let closed = false;
    return {
      kind: "pglite",
      db,
      ping: async () => {
        await client.query("SELECT 1");
      },
      close: async () => {
        if (closed) return;
        closed = true;
        await socket?.close();
        await client.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

async function openPool(pool: pg.Pool, kind: DbKind, migrationsFolder: string, options: OpenOptions): Promise<DatabaseHandle> {
  // A pool error on an idle client must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  // pg-pool drops its own error listener while a client is checked out. A server that ends the
  // session between two queries of a transaction (a shutdown, a failover) then emits an error with
  // no listener, which ends the process; with this one the transaction's next query fails instead,
  // as "database unavailable", and the pool discards the client on release.
  pool.on("connect", (client) => client.on("error", () => {}));
  const db = drizzlePg(pool, { schema, casing: "snake_case" });
  try {
    if (kind === "pglite") {
      // The running server migrated at its start and is the only other user of its one session.
      await migratePg(db, { migrationsFolder });
      await seedDatabase(db, options.siteName ?? "Patriot Investor");
    } else {
      if (options.requireDurability) await checkDurability(pool);
      const lockClient = await pool.connect();
      try {
        // drizzle's migrate() takes no lock; processes starting together would race.
        await lockClient.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
        await migratePg(db, { migrationsFolder });
        await seedDatabase(db, options.siteName ?? "Patriot Investor");
      } finally {
        await lockClient.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
        lockClient.release();
      }
    }
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  return {
    kind,
    db,
    ping: async () => {
      await pool.query("SELECT 1");
    },
    close: () => pool.end(),
  };
}

/** Numbers from count(*) and int8 arrive as number, bigint or string depending on the driver. */
export function toNumber(value: unknown) {
  return typeof value === "bigint" ? Number(value) : Number(value ?? 0);
}
