import { isStaffRole } from "~/lib/roles";
import { getSessionUser } from "./instance.server";
import { hasSessionCookie } from "./session-cookie";

/** Who the header shows as signed in: nothing personal beyond the address and whether staff. */
export type Viewer = { email: string; staff: boolean };

export async function getViewer(request: Request): Promise<Viewer | null> {
  // Anonymous requests (and the prerender step) never reach the database.
  if (!hasSessionCookie(request.headers.get("cookie"))) return null;
  const user = await getSessionUser(request);
  return user ? { email: user.email, staff: isStaffRole(user.role) } : null;
}
