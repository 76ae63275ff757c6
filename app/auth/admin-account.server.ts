import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "~/db/client.server";
import { isUniqueViolation } from "~/db/unique-violation";
import { auditLog, user } from "~/db/schema";
import { EMAIL_MAX } from "~/lib/forms";
import { ADMIN_ROLE, type Auth } from "./auth.server";
import { isCommonPassword, PASSWORD_MAX, PASSWORD_MIN, WEAK_PASSWORD_MESSAGE } from "./passwords.server";

export type AdminAccountResult =
  | { ok: true; created: boolean; email: string }
  | { ok: false; field: "email" | "password"; message: string };

const EmailSchema = z.email().max(EMAIL_MAX);

/** The sign-up form's password rules, for accounts made outside the sign-up form. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN) return `Password must be at least ${PASSWORD_MIN} characters.`;
  if (password.length > PASSWORD_MAX) return `Password must be at most ${PASSWORD_MAX} characters.`;
  if (isCommonPassword(password)) return WEAK_PASSWORD_MESSAGE;
  return null;
}

export async function adminExists(db: Db) {
  const [row] = await db.select({ id: user.id }).from(user).where(eq(user.role, ADMIN_ROLE)).limit(1);
  return Boolean(row);
}

/**
 * Creates a verified admin with a password, or promotes (and verifies) an existing account.
 * The account is made directly (not through the sign-up endpoint), so no verification mail is
 * queued for an address that is verified from the start.
 */
export async function createOrPromoteAdmin(
  db: Db,
  auth: Auth,
  input: { email: string; password?: string; actor: string },
): Promise<AdminAccountResult> {
  const email = input.email.trim().toLowerCase();
  if (!EmailSchema.safeParse(email).success) return { ok: false, field: "email", message: "Enter a valid email address." };
  const [existing] = await db.select({ id: user.id }).from(user).where(eq(user.email, email));
  let created = false;
  if (!existing) {
    if (!input.password) return { ok: false, field: "password", message: "A new admin needs a password." };
    const problem = passwordProblem(input.password);
    if (problem) return { ok: false, field: "password", message: problem };
    const context = await auth.$context;
    const hash = await context.password.hash(input.password);
    // The address can be taken between the check and the insert (a sign-up, or /setup and
    // admin:create at once): that account is then promoted, as if it had been found.
    const made = await context.internalAdapter
      .createUser({ email, name: email.split("@")[0]!, emailVerified: true, role: ADMIN_ROLE }, { method: "admin" })
      .catch((error: unknown) => {
        if (isUniqueViolation(error, "user_email_unique")) return null;
        throw error;
      });
    if (made) {
      try {
        await context.internalAdapter.linkAccount({ userId: made.id, providerId: "credential", accountId: made.id, password: hash });
      } catch (error) {
        // No account without its password.
        await db.delete(user).where(eq(user.id, made.id));
        throw error;
      }
      created = true;
    }
  }
  if (!created) await db.update(user).set({ role: ADMIN_ROLE, emailVerified: true, updatedAt: sql`now()` }).where(eq(user.email, email));
  await db.insert(auditLog).values({ actor: input.actor, action: created ? "user.create_admin" : "user.promote", entity: "user", after: email });
  return { ok: true, created, email };
}
