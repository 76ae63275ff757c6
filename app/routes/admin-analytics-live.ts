import { data } from "react-router";
import type { Route } from "./+types/admin-analytics-live";
import { requireEditor } from "~/auth/guards.server";
import { getSessionUser } from "~/auth/instance.server";
import { getDb } from "~/db/database.server";
import { getEnv } from "~/http/env.server";
import { liveFigures } from "~/services/analytics/live.server";

const PRIVATE = { "Cache-Control": "private, no-store" };

/**
 * GET /admin/analytics/live: the "Last 30 minutes" section of /admin/analytics alone, which the
 * open page fetches every LIVE_REFRESH_MS instead of reloading every table (decision 156). The
 * same figures as `live` in /admin/analytics.json; staff only, 401 without a session.
 */
export async function loader({ request }: Route.LoaderArgs) {
  // Returned, not thrown: the page's timer keeps its figures instead of showing an error page.
  if (!(await getSessionUser(request)))
    return data({ error: "Sign in as staff to read the analytics." }, { status: 401, headers: PRIVATE });
  await requireEditor(request);
  const env = getEnv();
  return data(
    await liveFigures(await getDb(), { timeZone: env.ANALYTICS_TIME_ZONE, flushSeconds: env.ANALYTICS_FLUSH_SECONDS }),
    { headers: PRIVATE },
  );
}
