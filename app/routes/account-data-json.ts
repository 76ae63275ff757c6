import type { Route } from "./+types/account-data-json";
import { requireUser } from "~/auth/guards.server";
import { getDb } from "~/db/database.server";
import { accountDataExport } from "~/services/account.server";

/** GET /account/data.json: "download my data", for the signed-in person only. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const exported = await accountDataExport(await getDb(), user.id, { email: user.email, emailVerified: user.emailVerified, phoneE164: user.phoneNumber });
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(JSON.stringify(exported, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="my-data-${stamp}.json"`,
      "Cache-Control": "private, no-store",
    },
  });
}
