import type { Route } from "./+types/consent-certificate-share-form";
import { getEnv } from "~/http/env.server";
import { servedFormResponse } from "~/http/served-form.server";
import { CERTIFICATE_TEXTS as T } from "~/lib/consent-evidence-texts";
import { checkShareToken } from "~/services/consent/share-link.server";
import { signerFromEnv } from "~/services/consent/signing.server";

/** GET /consent-certificates/:token/form/:eventId: the form as served, behind the same expiring link as the certificate. */
export async function loader({ params }: Route.LoaderArgs) {
  const check = checkShareToken(signerFromEnv(getEnv()), params.token);
  if (!check.ok) {
    return new Response(`${check.reason === "expired" ? T.shareExpired : T.shareInvalid}\n`, {
      status: check.reason === "expired" ? 410 : 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  return servedFormResponse(check.subscriberId, params.eventId);
}
