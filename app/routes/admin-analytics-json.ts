import { data } from "react-router";
import type { Route } from "./+types/admin-analytics-json";
import { ADMIN_ROLE } from "~/auth/auth.server";
import { requireEditor } from "~/auth/guards.server";
import { getSessionUser } from "~/auth/instance.server";
import { getDb } from "~/db/database.server";
import { getEnv } from "~/http/env.server";
import { analyticsFigures } from "~/services/analytics/figures.server";

const PRIVATE = { "Cache-Control": "private, no-store" };

/**
 * GET /admin/analytics.json?from=…&to=…: the figures of /admin/analytics as JSON, for a staff
 * session (an editor gets the content tables only, as on the page). Without a session: 401, not
 * the sign-in page a browser would be sent to. `live` holds the last 30 minutes (decision 156).
 */
export async function loader({ request }: Route.LoaderArgs) {
  if (!(await getSessionUser(request))) throw data({ error: "Sign in as staff to read the analytics." }, { status: 401, headers: PRIVATE });
  const user = await requireEditor(request);
  const result = await analyticsFigures(await getDb(), new URL(request.url).searchParams, {
    admin: user.role === ADMIN_ROLE,
    timeZone: getEnv().ANALYTICS_TIME_ZONE,
    flushSeconds: getEnv().ANALYTICS_FLUSH_SECONDS,
  });
  if (!result.ok) throw data({ error: result.error }, { status: 400, headers: PRIVATE });
  return Response.json(result.figures, { headers: PRIVATE });
}
