import { data, Form } from "react-router";
import type { Route } from "./+types/admin-subscriber-consent";
import { requireAdmin } from "~/auth/guards.server";
import { ConsentCertificateView } from "~/components/consent/certificate-view";
import { Button } from "~/components/ui/button";
import { getDb } from "~/db/database.server";
import { readFormOrAnswer } from "~/http/body.server";
import { getEnv } from "~/http/env.server";
import { CERTIFICATE_TEXTS as T, SHARE_MAX_DAYS } from "~/lib/consent-evidence-texts";
import { pageMeta } from "~/lib/route-meta";
import { buildCertificate } from "~/services/consent/certificate.server";
import { createShareToken } from "~/services/consent/share-link.server";
import { retiredKeysFromEnv, signerFromEnv } from "~/services/consent/signing.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  if (!UUID.test(params.id)) throw data({ message: "No such subscriber." }, { status: 404 });
  const env = getEnv();
  const certificate = await buildCertificate(await getDb(), params.id, signerFromEnv(env), retiredKeysFromEnv(env));
  if (!certificate) throw data({ message: "No such subscriber." }, { status: 404 });
  return { certificate };
}

/** Makes a share link (nothing is stored: the link carries its expiry, signed). */
export async function action({ request, params }: Route.ActionArgs) {
  await requireAdmin(request);
  if (!UUID.test(params.id)) throw data({ message: "No such subscriber." }, { status: 404 });
  const body = await readFormOrAnswer(request);
  if ("answer" in body) return body.answer;
  const days = Number(body.form.days);
  if (!Number.isInteger(days) || days < 1 || days > SHARE_MAX_DAYS) return data({ error: T.shareDaysInvalid }, { status: 400 });
  const env = getEnv();
  const expiresAt = new Date(Date.now() + days * 86_400_000);
  const token = createShareToken(signerFromEnv(env), params.id, expiresAt);
  return { shareUrl: `${env.SITE_URL}/consent-certificates/${token}`, expiresAt: expiresAt.toISOString() };
}

export const meta: Route.MetaFunction = ({ matches, params }) =>
  pageMeta(matches, { title: T.title, description: T.description, path: `/admin/subscribers/${params.id}/consent`, noindex: true });

export default function AdminSubscriberConsent({ loaderData, actionData }: Route.ComponentProps) {
  const { certificate } = loaderData;
  return (
    <ConsentCertificateView
      certificate={certificate}
      downloadHref={`/admin/subscribers/${certificate.subscriber.id}/consent.json`}
      formHref={(eventId) => `/admin/subscribers/${certificate.subscriber.id}/consent/form/${eventId}`}
    >
      <Form method="post" className="flex flex-wrap items-end gap-3 print:hidden">
        <p className="w-full text-sm text-muted-foreground">{T.shareIntro}</p>
        <label className="text-sm font-bold" htmlFor="share-days">
          {T.shareDays}
        </label>
        <input id="share-days" name="days" type="number" min={1} max={SHARE_MAX_DAYS} defaultValue={7} required className="w-20 rounded-md border border-border px-2 py-1" />
        <Button type="submit" size="sm">
          {T.shareButton}
        </Button>
      </Form>
      {actionData && "shareUrl" in actionData ? (
        <p role="status" className="text-sm [overflow-wrap:anywhere] print:hidden">
          {T.shareReady(actionData.expiresAt)} <a className="text-accent-strong underline" href={actionData.shareUrl}>{actionData.shareUrl}</a>
        </p>
      ) : null}
      {actionData && "error" in actionData ? (
        <p role="alert" className="text-sm text-destructive">
          {String(actionData.error)}
        </p>
      ) : null}
    </ConsentCertificateView>
  );
}
