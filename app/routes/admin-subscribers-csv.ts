import type { Route } from "./+types/admin-subscribers-csv";
import { requireAdmin } from "~/auth/guards.server";
import { getDb } from "~/db/database.server";
import { getEnv } from "~/http/env.server";
import { subscribersCsvStream } from "~/services/admin/csv-export.server";
import { signUpsCsvStream } from "~/services/admin/sign-up-list.server";
import { isFiltered } from "~/services/analytics/sign-up-filter";
import { parseSignUpFilter } from "~/services/analytics/sign-up-filter.server";
import { createSiteClock } from "~/services/analytics/site-clock";

/**
 * GET /admin/subscribers.csv: every subscriber, streamed; with the sign-up filters of the list
 * (decision 157), the sign-ups they select, one line each. A bad filter is a 400 that says why.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const timeZone = getEnv().ANALYTICS_TIME_ZONE;
  const parsed = parseSignUpFilter(new URL(request.url).searchParams, createSiteClock(timeZone)().day);
  if (!parsed.ok) return new Response(`${parsed.error}\n`, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" } });
  const filtered = isFiltered(parsed.filter);
  const stamp = new Date().toISOString().slice(0, 10);
  const db = await getDb();
  return new Response(filtered ? signUpsCsvStream(db, parsed.filter, { timeZone, now: new Date() }) : subscribersCsvStream(db), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filtered ? "sign-ups" : "subscribers"}-${stamp}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
