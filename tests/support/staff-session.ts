import { eq } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { createAuth } from "~/auth/auth.server";
import type { DbKind } from "~/db/client.server";
import { user } from "~/db/schema";
import { parseEnv } from "~/http/env.server";
import { openTestDatabase, type TestDatabase } from "./test-db";

type Holders = { __appDatabase?: { handle?: Promise<unknown> }; __appAuth?: { auth?: Promise<unknown> } };
export const SITE = "http://localhost:3000";
const PASSWORD = "Valley-Forge-1777!";

/**
 * Route-level tests with real sessions: a fresh database of the given kind becomes the process's
 * database and better-auth instance (what getDb() and getSessionUser() use), and `signedIn(role)`
 * gives the cookie of a verified account with that role.
 */
export function useStaffSessions(kind: DbKind) {
  let database: TestDatabase | undefined;
  const holders = globalThis as Holders;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const auth = createAuth({ db: database.db, env: parseEnv({ NODE_ENV: "test" }), secret: "route-test-secret-0123456789abcdef01234", siteName: "Patriot Investor" });
    (holders.__appDatabase ??= {}).handle = Promise.resolve(database);
    (holders.__appAuth ??= {}).auth = Promise.resolve(auth);
  }, 60_000);
  afterAll(async () => {
    holders.__appDatabase!.handle = undefined;
    holders.__appAuth!.auth = undefined;
    await database?.drop();
  });
  const cookies = new Map<string, string>();
  return {
    get db() {
      return database!.db;
    },
    /** The session cookie of a verified account with this role (one account per role and label). */
    async signedIn(role: string, label = role) {
      const key = `${role}:${label}`;
      const known = cookies.get(key);
      if (known) return known;
      const auth = (await holders.__appAuth!.auth) as ReturnType<typeof createAuth>;
      const email = `${label}.${kind}@example.com`;
      await auth.api.signUpEmail({ body: { email, password: PASSWORD, name: label } });
      await database!.db.update(user).set({ role, emailVerified: true }).where(eq(user.email, email));
      const response = await auth.api.signInEmail({ body: { email, password: PASSWORD }, asResponse: true });
      const cookie = response.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
      cookies.set(key, cookie);
      return cookie;
    },
  };
}

/** What a loader or action threw or returned, as a status (403, 302...) or "ok". */
export async function outcome(run: () => Promise<unknown>): Promise<number | "ok"> {
  try {
    const value = await run();
    if (value instanceof Response) return value.status;
    if (value && typeof value === "object" && (value as { type?: unknown }).type === "DataWithResponseInit") return (value as { init?: { status?: number } }).init?.status ?? "ok";
    return "ok";
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    if (thrown && typeof thrown === "object" && (thrown as { type?: unknown }).type === "DataWithResponseInit") return (thrown as { init?: { status?: number } }).init?.status ?? 500;
    throw thrown;
  }
}
