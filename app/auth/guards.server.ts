import { data, replace } from "react-router";
import { getEnv } from "~/http/env.server";
import { ADMIN_ROLE, EDITOR_ROLE } from "./auth.server";
import { getSessionUser, type SessionUser } from "./instance.server";
import { safeReturnPath } from "~/lib/return-path";
import { isStaffRole } from "~/lib/roles";

/** Where an editor's staff home (/admin) leads. */
export const EDITOR_HOME = "/admin/articles";

/** What an editor reads on a page that is for admins only. */
export const STAFF_ONLY_ADMINS = "This page is for admins only. Editors use Articles and Images.";

/**
 * Every /admin loader and action calls this. No session: to /auth with the way back (replacing the
 * history entry). Signed in without the admin role: 403. With ADMIN_REQUIRE_2FA, an admin without
 * two-factor sign-in is sent to set it up first.
 */
export async function requireAdmin(request: Request, options: { allowWithout2fa?: boolean } = {}): Promise<SessionUser> {
  return requireStaff(request, [ADMIN_ROLE], options);
}

/**
 * The editorial desk (/admin/articles, /admin/media), the admin layout and the staff's own
 * two-factor page: editors and admins, under the same rules as requireAdmin. Every admin-only
 * page calls requireAdmin itself (tested against the whole route table).
 */
export async function requireEditor(request: Request, options: { allowWithout2fa?: boolean } = {}): Promise<SessionUser> {
  return requireStaff(request, [ADMIN_ROLE, EDITOR_ROLE], options);
}

async function requireStaff(request: Request, roles: readonly string[], options: { allowWithout2fa?: boolean }): Promise<SessionUser> {
  const user = await getSessionUser(request);
  const url = new URL(request.url);
  if (!user) {
    throw replace(`/auth?redirectTo=${encodeURIComponent(safeReturnPath(url.pathname + url.search))}`);
  }
  if (!roles.includes(user.role ?? "")) {
    const message = isStaffRole(user.role) ? STAFF_ONLY_ADMINS : "Your account does not have access to the admin area.";
    throw data({ message }, { status: 403 });
  }
  if (getEnv().ADMIN_REQUIRE_2FA && !user.twoFactorEnabled && !options.allowWithout2fa) {
    throw replace("/admin/security?required=1");
  }
  return user;
}

/** Pages of one's own account: anyone signed in; no session: to /auth with the way back. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) {
    const url = new URL(request.url);
    throw replace(`/auth?redirectTo=${encodeURIComponent(safeReturnPath(url.pathname + url.search))}`);
  }
  return user;
}
