import { data } from "react-router";
import type { Route } from "./+types/consent-certificate-share";
import { ConsentCertificateView } from "~/components/consent/certificate-view";
import { getDb } from "~/db/database.server";
import { getEnv } from "~/http/env.server";
import { CERTIFICATE_TEXTS as T } from "~/lib/consent-evidence-texts";
import { pageMeta } from "~/lib/route-meta";
import { buildCertificate } from "~/services/consent/certificate.server";
import { checkShareToken } from "~/services/consent/share-link.server";
import { retiredKeysFromEnv, signerFromEnv } from "~/services/consent/signing.server";

/** GET /consent-certificates/:token: a certificate shared with a lawyer or a lead buyer, no account needed, until the link expires. */
export async function loader({ params }: Route.LoaderArgs) {
  const env = getEnv();
  const signer = signerFromEnv(env);
  const check = checkShareToken(signer, params.token);
  if (!check.ok) throw data({ message: check.reason === "expired" ? T.shareExpired : T.shareInvalid }, { status: check.reason === "expired" ? 410 : 404, headers: { "Cache-Control": "no-store" } });
  const certificate = await buildCertificate(await getDb(), check.subscriberId, signer, retiredKeysFromEnv(env));
  if (!certificate) throw data({ message: T.shareInvalid }, { status: 404 });
  return data({ certificate, token: params.token, expiresAt: check.expiresAt.toISOString() }, { headers: { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex" } });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: T.title, description: T.description, path: "/consent-certificates", noindex: true });

export default function ConsentCertificateShare({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-4xl px-4 py-8">
      <ConsentCertificateView certificate={loaderData.certificate} formHref={(eventId) => `/consent-certificates/${loaderData.token}/form/${eventId}`}>
        <p className="text-sm text-muted-foreground print:hidden">{T.sharedUntil(loaderData.expiresAt)}</p>
      </ConsentCertificateView>
    </div>
  );
}
