import { data } from "react-router";
import type { Route } from "./+types/opt-in";
import { withActionRetryAfter } from "~/http/route-headers";
import { CONSENT_FORM_BODY_LIMIT, readFormOrAnswer } from "~/http/body.server";
import { runOptIn } from "~/http/opt-in.server";
import { formPageAddress, requestEvidence, requestGpc } from "~/http/request.server";
import { PAGE_ADDRESS_FIELD } from "~/lib/interaction";
import { OPT_IN_ERROR } from "~/lib/notice-fallbacks";
import { OptInPage } from "~/components/opt-in/opt-in-page";
import { OPT_IN_SEO } from "~/components/opt-in/opt-in-seo";
import { pageMeta } from "~/lib/route-meta";
import { useSiteConfig } from "~/root";
import { formPageOf } from "~/http/form-served.server";
import { keepDataAfterPostToSameUrl } from "~/lib/revalidate";

/** The form's own action, so the page works with JavaScript off; same logic as /api/phone-optin. */
export async function action({ request }: Route.ActionArgs) {
  const body = await readFormOrAnswer(request, CONSENT_FORM_BODY_LIMIT);
  if ("answer" in body) return body.answer;
  const fields = body.form;
  const result = await runOptIn(fields, requestEvidence(request, formPageAddress(request, fields[PAGE_ADDRESS_FIELD])), formPageOf(request), requestGpc(request));
  const headers: HeadersInit = result.retryAfter ? { "Retry-After": String(result.retryAfter) } : {};
  return data(result.actionData, { status: result.status, headers });
}

/** A lost connection becomes the spec's generic "Subscription Error" instead of an error page. */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  try {
    return await serverAction();
  } catch {
    return { form: "opt-in" as const, success: false, dnc: false, notice: OPT_IN_ERROR };
  }
}

export const shouldRevalidate = keepDataAfterPostToSameUrl;

// A limited post (429) says when to try again.
export const headers: Route.HeadersFunction = (args) => withActionRetryAfter(args);

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { ...OPT_IN_SEO, path: "/opt-in" });

export default function OptIn({ actionData }: Route.ComponentProps) {
  const site = useSiteConfig();
  const serverResult = actionData && "form" in actionData ? actionData : undefined;
  return <OptInPage site={site} serverResult={serverResult} />;
}
