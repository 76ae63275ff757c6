import path from "node:path";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { openDatabase, type DatabaseHandle, type DbKind } from "~/db/client.server";

/** The local PostgreSQL server the service tests create their databases on. */
export const TEST_PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export const DB_KINDS: DbKind[] = ["pglite", "postgres"];

export type TestDatabase = DatabaseHandle & { url?: string; drop: () => Promise<void> };

export async function createPostgresDatabase() {
  const name = `app_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

let image: Promise<Blob> | undefined;

/**
 * A dump of an empty, migrated PGlite database, made once per set of migrations and kept in the
 * temporary folder, so each test database skips initdb and the migrations (seeding still runs).
 * Written to a temporary name and renamed: test files running at once never read half a file.
 */
function migratedPgliteImage(migrationsFolder: string) {
  image ??= (async () => {
    const hash = createHash("sha256");
    for (const name of readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
      const file = path.join(migrationsFolder, name);
      if (name.endsWith(".sql") || name.endsWith(".json")) hash.update(name).update(readFileSync(file));
    }
    const file = path.join(tmpdir(), `patriot-investor-pglite-${hash.digest("hex").slice(0, 16)}.tar`);
    if (!existsSync(file)) {
      const client = await PGlite.create();
      await migrate(drizzle(client) as never, { migrationsFolder });
      const dump = await client.dumpDataDir("none");
      await client.close();
      const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
      writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
      renameSync(partial, file);
    }
    return new Blob([readFileSync(file)]);
  })();
  return image;
}

/** A freshly migrated database of the given kind: in-memory PGlite, or a new database on PostgreSQL. */
export async function openTestDatabase(kind: DbKind): Promise<TestDatabase> {
  const migrationsFolder = path.resolve("drizzle");
  if (kind === "pglite") {
    const handle = await openDatabase({ dataDir: "memory", migrationsFolder, pgliteImage: await migratedPgliteImage(migrationsFolder) });
    return { ...handle, drop: () => handle.close() };
  }
  const created = await createPostgresDatabase();
  const handle = await openDatabase({ url: created.url, migrationsFolder, connectTimeoutMs: 60_000 });
  return {
    ...handle,
    url: created.url,
    drop: async () => {
      await handle.close();
      await created.drop();
    },
  };
}

export const NO_EVIDENCE = { ip: "203.0.113.7", userAgent: "vitest", acceptLanguage: "en-US", pageUrl: "http://localhost/opt-in", referrer: null };

/**
 * A fresh database of the given kind for the enclosing describe block: opened before its tests,
 * dropped after them. Read `.db` (and `.url` on PostgreSQL) inside tests and hooks.
 */
export function useTestDatabase(kind: DbKind) {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  }, 60_000);
  afterAll(async () => {
    await database?.drop();
  });
  const current = () => {
    if (!database) throw new Error("the test database is not open yet");
    return database;
  };
  return {
    get db() {
      return current().db;
    },
    get url() {
      return current().url;
    },
  };
}
