import { data } from "react-router";
import type { Route } from "./+types/admin-alerts-reach";
import { requireAdmin } from "~/auth/guards.server";
import { getDb } from "~/db/database.server";
import { getEnv } from "~/http/env.server";
import { audienceFromFields } from "~/lib/audience-form";
import { AudienceSchema, countReach } from "~/services/sending/audience.server";

/** GET /admin/alerts/reach?<audience fields>: how many people the filters reach now, after every exclusion. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const fields = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = AudienceSchema.safeParse(audienceFromFields(fields));
  if (!parsed.success) return data({ ok: false as const, error: parsed.error.issues[0]?.message ?? "Check the filters." }, { status: 400, headers: { "Cache-Control": "private, no-store" } });
  const reach = await countReach(await getDb(), parsed.data, getEnv().DNC_POLICY);
  return data({ ok: true as const, reach }, { headers: { "Cache-Control": "private, no-store" } });
}
