import type { Route } from "./+types/admin-newsletter-csv";
import { requireAdmin } from "~/auth/guards.server";
import { getDb } from "~/db/database.server";
import { newsletterCsvStream } from "~/services/newsletter/transfer.server";

/** The newsletter list as CSV (the import reads the same columns back). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(newsletterCsvStream(await getDb()), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="newsletter-subscribers-${day}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
