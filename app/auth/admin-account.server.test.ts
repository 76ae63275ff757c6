import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, emailMessages, user } from "~/db/schema";
import { parseEnv } from "~/http/env.server";
import { DB_KINDS, useTestDatabase } from "../../tests/support/test-db";
import { createAuth } from "./auth.server";
import { adminExists, createOrPromoteAdmin } from "./admin-account.server";

describe.each(DB_KINDS)("creating an admin outside the sign-up form (%s)", (kind) => {
  const database = useTestDatabase(kind);
  const auth = () =>
    createAuth({ db: database.db, env: parseEnv({ NODE_ENV: "test" }), secret: "admin-account-test-secret-0123456789abcdef", siteName: "Patriot Investor" });

  it("creates a verified admin who can sign in, and queues no verification mail", async () => {
    expect(await adminExists(database.db)).toBe(false);
    const result = await createOrPromoteAdmin(database.db, auth(), { email: " Chief@Example.com ", password: "Valley-Forge-1777!", actor: "test" });
    expect(result).toEqual({ ok: true, created: true, email: "chief@example.com" });
    const [row] = await database.db.select().from(user).where(eq(user.email, "chief@example.com"));
    expect(row).toMatchObject({ role: "admin", emailVerified: true });
    expect(await database.db.select().from(emailMessages)).toEqual([]);
    expect(await adminExists(database.db)).toBe(true);
    const signedIn = await auth().api.signInEmail({ body: { email: "chief@example.com", password: "Valley-Forge-1777!" }, asResponse: true });
    expect(signedIn.status).toBe(200);
    const audit = await database.db.select().from(auditLog).where(eq(auditLog.after, "chief@example.com"));
    expect(audit.map((entry) => entry.action)).toEqual(["user.create_admin"]);
  });

  it("holds a new admin's password to the sign-up rules and writes nothing for a refused one", async () => {
    for (const [password, message] of [
      ["short", /at least 6/],
      ["password123", /too common/],
      [undefined, /needs a password/],
    ] as const) {
      const result = await createOrPromoteAdmin(database.db, auth(), { email: "weak@example.com", password, actor: "test" });
      expect(result).toMatchObject({ ok: false, field: "password", message: expect.stringMatching(message) });
    }
    expect(await createOrPromoteAdmin(database.db, auth(), { email: "not-an-address", password: "Valley-Forge-1777!", actor: "test" })).toMatchObject({ ok: false, field: "email" });
    expect(await database.db.select().from(user).where(eq(user.email, "weak@example.com"))).toEqual([]);
  });

  it("promotes and verifies an existing reader without touching the password", async () => {
    await auth().api.signUpEmail({ body: { email: "reader@example.com", password: "Bunker-Hill-1775!", name: "reader" } });
    const result = await createOrPromoteAdmin(database.db, auth(), { email: "reader@example.com", actor: "test" });
    expect(result).toEqual({ ok: true, created: false, email: "reader@example.com" });
    const [row] = await database.db.select().from(user).where(eq(user.email, "reader@example.com"));
    expect(row).toMatchObject({ role: "admin", emailVerified: true });
  });
});
