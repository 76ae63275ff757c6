import type { OptInActionData } from "~/components/opt-in/opt-in-page";
import { getDb } from "~/db/database.server";
import { fieldErrors, OptInSchema } from "~/lib/forms";
import { parseInteraction } from "~/lib/interaction.server";
import { checkUsMobile } from "~/lib/phone";
import { NOTICES, noticeWith, type Notice } from "~/lib/notices";
import { hitRateLimit, RATE_LIMITS } from "~/services/rate-limit.server";
import { keepServedPage } from "~/services/consent/served-page.server";
import { optInToSms, type SmsOptInResult } from "~/services/subscription/sms-opt-in.server";
import { processVisitLookup } from "~/services/analytics/process.server";
import { getEnv, type Env } from "./env.server";
import type { RequestEvidence } from "~/services/subscription/evidence";
import type { FormPage } from "./form-served.server";

/** The original's answer shape: { success, dnc, error }. */
export type OptInAnswer = { success: boolean; dnc: boolean; error: string | null; pending?: true };

export type OptInOutcome = { status: number; answer: OptInAnswer; actionData: OptInActionData; retryAfter?: number };

function outcome(status: number, notice: Notice, extra: Partial<OptInActionData> = {}, dnc = false): OptInOutcome {
  const success = status === 200;
  return {
    status,
    answer: { success, dnc, error: success ? null : notice.description },
    actionData: { form: "opt-in", success, dnc, notice, ...extra },
  };
}

/** Maps a service result to the notice of the spec's catalogue. */
export function optInOutcome(result: SmsOptInResult): OptInOutcome {
  if (result.ok && result.pending) {
    // Double opt-in: the same success shape plus `pending`, so the original's callers keep working.
    const pending = outcome(200, NOTICES.optInConfirmPending);
    return { ...pending, answer: { ...pending.answer, pending: true }, actionData: { ...pending.actionData, pending: true } };
  }
  if (result.ok) return outcome(200, NOTICES.optInSuccess);
  switch (result.code) {
    case "terms_consent_required":
      return outcome(400, NOTICES.consentRequired);
    case "sms_consent_required":
      return outcome(400, NOTICES.smsConsentRequired);
    case "invalid_phone":
      return outcome(400, noticeWith("optInError", result.message), { fieldErrors: { phone: result.message } });
    case "dnc":
      return outcome(422, NOTICES.optInDnc, {}, true);
  }
}

function submittedValues(fields: unknown) {
  const record = (fields ?? {}) as Record<string, unknown>;
  const text = (name: string) => (typeof record[name] === "string" ? (record[name] as string).slice(0, 100) : "");
  return { firstName: text("firstName"), lastName: text("lastName"), phone: text("phone") };
}

/**
 * The opt-in rules the configuration sets, for every form that subscribes a number (and the
 * newsletter's); `visits` finds the visit each sign-up came from (decision 149).
 */
export function smsOptInSettings(env: Env) {
  return {
    siteName: env.SITE_NAME,
    dncPolicy: env.DNC_POLICY,
    doubleOptIn: env.SMS_DOUBLE_OPT_IN,
    postbackUrl: env.CONVERSION_POSTBACK_URL,
    postbackAdPlatform: env.CONVERSION_POSTBACK_AD_PLATFORM,
    visits: processVisitLookup(env),
  };
}

/**
 * Shared by the opt-in page's form action and POST /api/phone-optin. `page`: where the form is
 * this site's own page, the page it came from (decision 079); the API has none. `gpc`: the
 * request sent Sec-GPC: 1 (decision 153).
 */
export async function runOptIn(fields: unknown, evidence: RequestEvidence, page?: FormPage, gpc = false): Promise<OptInOutcome> {
  const result = await evaluateOptIn(fields, evidence, page, gpc);
  if (!result.answer.success) result.actionData.values = submittedValues(fields);
  return result;
}

async function evaluateOptIn(fields: unknown, evidence: RequestEvidence, page: FormPage | undefined, gpc: boolean): Promise<OptInOutcome> {
  const parsed = OptInSchema.safeParse(fields);
  if (!parsed.success) {
    const errors = fieldErrors<"firstName" | "lastName" | "phone">(parsed.error);
    const missing = ["firstName", "lastName", "phone"].some((name) => {
      const value = (fields as Record<string, unknown> | null)?.[name];
      return typeof value !== "string" || value.trim() === "";
    });
    const notice = missing ? NOTICES.optInMissingFields : noticeWith("optInError", Object.values(errors)[0]);
    return outcome(400, notice, { fieldErrors: errors });
  }

  const db = await getDb();
  const phone = checkUsMobile(parsed.data.phone);
  const perNumber = await hitRateLimit(db, RATE_LIMITS.optInPerPhone, phone.ok ? phone.e164 : parsed.data.phone.replace(/\D/g, ""));
  const perAddress = await hitRateLimit(db, RATE_LIMITS.optInPerIp, evidence.ip ?? "unknown");
  if (!perNumber.allowed || !perAddress.allowed) {
    const retryAfter = Math.max(perNumber.allowed ? 0 : perNumber.retryAfterSeconds, perAddress.allowed ? 0 : perAddress.retryAfterSeconds);
    return { ...outcome(429, NOTICES.tooManyRequests), retryAfter };
  }

  const env = getEnv();
  const servedPageSha256 = page ? await keepServedPage(db, evidence.pageUrl, page) : null;
  const result = await optInToSms(
    db,
    { ...parsed.data, source: "opt-in", evidence, interaction: parseInteraction((fields as Record<string, unknown>).interaction), servedPageSha256, gpc },
    smsOptInSettings(env),
  );
  return optInOutcome(result);
}

export const OPT_IN_NOT_ALLOWED: OptInAnswer = { success: false, dnc: false, error: "Use POST with a JSON body." };

/** POST /api/phone-optin: the parsed JSON body in, the original's answer out (with status and headers). */
export async function phoneOptInApi(body: unknown, evidence: RequestEvidence, gpc = false) {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { status: 400, answer: { success: false, dnc: false, error: "The body must be a JSON object." }, headers: {} };
  }
  const result = await runOptIn(body, evidence, undefined, gpc);
  const headers: Record<string, string> = result.retryAfter ? { "Retry-After": String(result.retryAfter) } : {};
  return { status: result.status, answer: result.answer, headers };
}
