import { data } from "react-router";
import type { Route } from "./+types/admin-subscriber-consent-json";
import { requireAdmin } from "~/auth/guards.server";
import { getDb } from "~/db/database.server";
import { getEnv } from "~/http/env.server";
import { buildCertificate, signCertificate } from "~/services/consent/certificate.server";
import { retiredKeysFromEnv, signerFromEnv } from "~/services/consent/signing.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** GET /admin/subscribers/:id/consent.json: the consent certificate, signed (decision 070). */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  if (!UUID.test(params.id)) throw data({ message: "No such subscriber." }, { status: 404 });
  const env = getEnv();
  const signer = signerFromEnv(env);
  const certificate = await buildCertificate(await getDb(), params.id, signer, retiredKeysFromEnv(env));
  if (!certificate) throw data({ message: "No such subscriber." }, { status: 404 });
  return new Response(signCertificate(certificate, signer), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="consent-certificate-${params.id}.json"`,
      "Cache-Control": "private, no-store",
    },
  });
}
