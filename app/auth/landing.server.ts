import { safeReturnPath } from "~/lib/return-path";
import { isStaffRole } from "~/lib/roles";

/**
 * Where a sign-in ends: the page that sent the person to sign in (on this site only), else the
 * staff home for staff and the home page for readers.
 */
export function landingAfterSignIn(redirectTo: string | null | undefined, role: unknown) {
  return safeReturnPath(redirectTo, isStaffRole(role) ? "/admin" : "/");
}

/** The signed-in user's role in one of better-auth's sign-in answers ({ user: { role } }). */
export function roleIn(body: Record<string, unknown> | null) {
  const user = body?.user as { role?: unknown } | undefined;
  return user?.role;
}
