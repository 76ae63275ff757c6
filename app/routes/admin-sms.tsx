import { redirect } from "react-router";
import type { Route } from "./+types/admin-sms";
import { pageMeta } from "~/lib/route-meta";

/**
 * The welcome-SMS editor. Until accounts exist nobody can hold a session, so the guard's
 * "no session" rule applies to every request: redirect to /auth with the return path.
 */
export function loader({ request }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  throw redirect(`/auth?redirectTo=${encodeURIComponent(pathname)}`);
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "SMS Admin", description: "Welcome SMS administration.", path: "/admin/sms", noindex: true });

export default function AdminSms() {
  return null;
}
