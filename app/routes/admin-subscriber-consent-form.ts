import { data } from "react-router";
import type { Route } from "./+types/admin-subscriber-consent-form";
import { requireAdmin } from "~/auth/guards.server";
import { servedFormResponse } from "~/http/served-form.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** GET /admin/subscribers/:id/consent/form/:eventId: the opt-in page exactly as that person was served it (decision 079). */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  if (!UUID.test(params.id)) throw data({ message: "No such subscriber." }, { status: 404 });
  return servedFormResponse(params.id, params.eventId);
}
