import { and, count, desc, eq, ilike, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { auditLog, user } from "~/db/schema";
import { ADMIN_ROLE, EDITOR_ROLE, READER_ROLE } from "~/auth/auth.server";
import { isRole, type Role } from "~/lib/roles";

/** The pages' catalogue of roles (lib/roles) is the one the auth configuration uses. */
const CONFIGURED: { [R in Role]: R } = { reader: READER_ROLE, editor: EDITOR_ROLE, admin: ADMIN_ROLE };
export const PEOPLE_PAGE_SIZE = 25;

/** An account without a role (created before roles existed) is a reader. */
export function roleOf(stored: string | null): Role {
  return isRole(stored) ? stored : CONFIGURED.reader;
}

export type Person = { id: string; email: string; name: string; role: Role; createdAt: Date; twoFactorEnabled: boolean };

/** Accounts, newest first, optionally those whose e-mail contains `search`. */
export async function listPeople(db: Db, options: { search?: string; page: number }): Promise<{ rows: Person[]; total: number }> {
  const term = options.search?.trim().toLowerCase();
  // The term is matched literally: % and _ typed by the admin are not wildcards.
  const where = term ? ilike(user.email, `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select({ id: user.id, email: user.email, name: user.name, role: user.role, createdAt: user.createdAt, twoFactorEnabled: user.twoFactorEnabled })
      .from(user)
      .where(where)
      .orderBy(desc(user.createdAt), desc(user.id))
      .limit(PEOPLE_PAGE_SIZE)
      .offset((options.page - 1) * PEOPLE_PAGE_SIZE),
    db.select({ n: count() }).from(user).where(where),
  ]);
  return {
    rows: rows.map((row) => ({ ...row, role: roleOf(row.role), twoFactorEnabled: Boolean(row.twoFactorEnabled) })),
    total: Number(total?.n ?? 0),
  };
}

export type ChangeRoleResult =
  | { ok: true; email: string; before: Role; after: Role }
  | { ok: false; code: "invalid_role" | "not_found" | "unchanged" | "last_admin" };

/**
 * Gives an account another role. The site must keep an admin: the last one cannot be demoted
 * (the admins' rows are locked first, so two admins demoting each other at once cannot both
 * succeed). The change and its author go to the audit log in the same transaction. The role is
 * read from the database on every request (getSessionUser), so the person's next request has it.
 */
export async function changeRole(db: Db, input: { userId: string; role: string; actor: string }): Promise<ChangeRoleResult> {
  if (!isRole(input.role)) return { ok: false, code: "invalid_role" };
  const role = input.role;
  return db.transaction(async (tx) => {
    const admins = await tx.select({ id: user.id }).from(user).where(eq(user.role, CONFIGURED.admin)).orderBy(user.id).for("update");
    const [target] = await tx.select({ id: user.id, email: user.email, role: user.role }).from(user).where(eq(user.id, input.userId)).for("update");
    if (!target) return { ok: false as const, code: "not_found" as const };
    const before = roleOf(target.role);
    if (before === role) return { ok: false as const, code: "unchanged" as const };
    if (before === CONFIGURED.admin && admins.length <= 1) return { ok: false as const, code: "last_admin" as const };
    await tx.update(user).set({ role, updatedAt: sql`now()` }).where(and(eq(user.id, target.id)));
    await tx.insert(auditLog).values({
      actor: input.actor,
      action: "user.role",
      entity: `user:${target.id}`,
      before: JSON.stringify({ email: target.email, role: before }),
      after: JSON.stringify({ email: target.email, role }),
    });
    return { ok: true as const, email: target.email, before, after: role };
  });
}
