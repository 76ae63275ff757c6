import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { createAuth } from "~/auth/auth.server";
import { getSessionUser } from "~/auth/instance.server";
import { auditLog, user } from "~/db/schema";
import { parseEnv } from "~/http/env.server";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { changeRole, listPeople } from "./people.server";

const authHolder = ((globalThis as { __appAuth?: { auth?: Promise<unknown> } }).__appAuth ??= {});
afterAll(() => {
  authHolder.auth = undefined;
});

describe.each(DB_KINDS)("people and roles (%s)", (kind) => {
  const database = useTestDatabase(kind);
  const auth = () => createAuth({ db: database.db, env: parseEnv({ NODE_ENV: "test" }), secret: "people-test-secret-0123456789abcdef0123", siteName: "Patriot Investor" });

  async function account(email: string, role: string) {
    await auth().api.signUpEmail({ body: { email, password: "Valley-Forge-1777!", name: email.split("@")[0]! } });
    await database.db.update(user).set({ role, emailVerified: true }).where(eq(user.email, email));
    const [row] = await database.db.select().from(user).where(eq(user.email, email));
    return row!;
  }

  it("lists accounts newest first, finds them by e-mail (literally) and pages", async () => {
    await account("first.admin@example.com", "admin");
    await account("reader_one@example.com", "reader");
    await account("reader2@example.com", "reader");
    const all = await listPeople(database.db, { page: 1 });
    expect(all.total).toBe(3);
    expect(all.rows[0]).toMatchObject({ email: "reader2@example.com", role: "reader", twoFactorEnabled: false });
    expect((await listPeople(database.db, { search: "READER", page: 1 })).total).toBe(2);
    // "_" is a character here, not a wildcard.
    expect((await listPeople(database.db, { search: "reader_", page: 1 })).rows.map((row) => row.email)).toEqual(["reader_one@example.com"]);
    expect((await listPeople(database.db, { page: 2 })).rows).toEqual([]);
  });

  it("promotes a reader to editor with an audit entry, refuses unknown roles, accounts and no-op changes", async () => {
    const [reader] = await database.db.select().from(user).where(eq(user.email, "reader_one@example.com"));
    expect(await changeRole(database.db, { userId: reader!.id, role: "editor", actor: "first.admin@example.com" })).toEqual({
      ok: true,
      email: "reader_one@example.com",
      before: "reader",
      after: "editor",
    });
    const [entry] = await database.db.select().from(auditLog).where(eq(auditLog.entity, `user:${reader!.id}`));
    expect(entry).toMatchObject({ actor: "first.admin@example.com", action: "user.role" });
    expect(JSON.parse(entry!.before!)).toEqual({ email: "reader_one@example.com", role: "reader" });
    expect(JSON.parse(entry!.after!)).toEqual({ email: "reader_one@example.com", role: "editor" });
    expect(await changeRole(database.db, { userId: reader!.id, role: "owner", actor: "x" })).toEqual({ ok: false, code: "invalid_role" });
    expect(await changeRole(database.db, { userId: "no-such-id", role: "admin", actor: "x" })).toEqual({ ok: false, code: "not_found" });
    expect(await changeRole(database.db, { userId: reader!.id, role: "editor", actor: "x" })).toEqual({ ok: false, code: "unchanged" });
  });

  it("refuses to demote the last admin, also when two admins demote each other at once", async () => {
    const [admin] = await database.db.select().from(user).where(eq(user.email, "first.admin@example.com"));
    const entriesBefore = (await database.db.select().from(auditLog)).length;
    expect(await changeRole(database.db, { userId: admin!.id, role: "editor", actor: admin!.email })).toEqual({ ok: false, code: "last_admin" });
    expect((await database.db.select().from(user).where(eq(user.id, admin!.id)))[0]!.role).toBe("admin");
    expect((await database.db.select().from(auditLog)).length).toBe(entriesBefore);

    const second = await account("second.admin@example.com", "admin");
    const results = await Promise.all([
      changeRole(database.db, { userId: admin!.id, role: "reader", actor: second.email }),
      changeRole(database.db, { userId: second.id, role: "reader", actor: admin!.email }),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok)).toEqual([{ ok: false, code: "last_admin" }]);
    expect(await database.db.select().from(user).where(eq(user.role, "admin"))).toHaveLength(1);
  });

  it("a demoted person's next request already has the new role (no role cached in the session cookie)", async () => {
    const editor = await account("editor.session@example.com", "editor");
    authHolder.auth = Promise.resolve(auth());
    const signedIn = await auth().api.signInEmail({ body: { email: editor.email, password: "Valley-Forge-1777!" }, asResponse: true });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
    const request = () => new Request("http://localhost:3000/admin", { headers: { cookie } });
    expect((await getSessionUser(request()))?.role).toBe("editor");
    await changeRole(database.db, { userId: editor.id, role: "reader", actor: "first.admin@example.com" });
    expect((await getSessionUser(request()))?.role).toBe("reader");
    await changeRole(database.db, { userId: editor.id, role: "editor", actor: "first.admin@example.com" });
    expect((await getSessionUser(request()))?.role).toBe("editor");
  });
});
