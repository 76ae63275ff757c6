import path from "node:path";
import { randomBytes } from "node:crypto";
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

/** A freshly migrated database of the given kind: in-memory PGlite, or a new database on PostgreSQL. */
export async function openTestDatabase(kind: DbKind): Promise<TestDatabase> {
  const migrationsFolder = path.resolve("drizzle");
  if (kind === "pglite") {
    const handle = await openDatabase({ dataDir: "memory", migrationsFolder });
    return { ...handle, drop: () => handle.close() };
  }
  const created = await createPostgresDatabase();
  const handle = await openDatabase({ url: created.url, migrationsFolder });
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
