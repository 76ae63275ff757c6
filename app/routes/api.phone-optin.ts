import { data } from "react-router";
import type { Route } from "./+types/api.phone-optin";
import { BodyError, readJsonBody } from "~/http/body.server";
import { OPT_IN_NOT_ALLOWED, phoneOptInApi } from "~/http/opt-in.server";
import { requestEvidence, requestGpc } from "~/http/request.server";

// In production the server answers this path itself (server/fast-routes.ts) with the same
// handler; this route serves the dev server and anything that reaches the router.

export function loader() {
  return data(OPT_IN_NOT_ALLOWED, { status: 405, headers: { Allow: "POST" } });
}

/** POST /api/phone-optin {firstName, lastName, phone, clickId, smsConsent, termsConsent} -> {success, dnc, error}. */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return data(OPT_IN_NOT_ALLOWED, { status: 405, headers: { Allow: "POST" } });
  let body: unknown;
  try {
    body = await readJsonBody(request);
  } catch (error) {
    if (error instanceof BodyError) return data({ success: false, dnc: false, error: error.message }, { status: error.status });
    throw error;
  }
  const result = await phoneOptInApi(body, requestEvidence(request, request.headers.get("referer")), requestGpc(request));
  return data(result.answer, { status: result.status, headers: result.headers });
}
