import { data } from "react-router";
import type { Route } from "./+types/api.phone-optin";
import { BodyError, readJsonBody } from "~/http/body.server";
import { runOptIn } from "~/http/opt-in.server";

const NOT_ALLOWED = { success: false, dnc: false, error: "Use POST with a JSON body." };

export function loader() {
  return data(NOT_ALLOWED, { status: 405, headers: { Allow: "POST" } });
}

/** POST /api/phone-optin {firstName, lastName, phone, clickId, smsConsent, termsConsent} -> {success, dnc, error}. */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return data(NOT_ALLOWED, { status: 405, headers: { Allow: "POST" } });
  let body: unknown;
  try {
    body = await readJsonBody(request);
  } catch (error) {
    if (error instanceof BodyError) return data({ success: false, dnc: false, error: error.message }, { status: error.status });
    throw error;
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return data({ success: false, dnc: false, error: "The body must be a JSON object." }, { status: 400 });
  }
  const result = await runOptIn(request, body, request.headers.get("referer"));
  const headers: HeadersInit = result.retryAfter ? { "Retry-After": String(result.retryAfter) } : {};
  return data(result.answer, { status: result.status, headers });
}
