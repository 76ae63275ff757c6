import type { OptInActionData } from "~/components/opt-in/opt-in-page";
import { getDb } from "~/db/database.server";
import { fieldErrors, OptInSchema } from "~/lib/forms";
import { NOTICES, noticeWith, type Notice } from "~/lib/notices";
import { hitRateLimit, RATE_LIMITS } from "~/services/rate-limit.server";
import { optInToSms, type SmsOptInResult } from "~/services/sms-opt-in.server";
import { getEnv } from "./env.server";
import { clientIp, requestEvidence } from "./request.server";

/** The original's answer shape: { success, dnc, error }. */
export type OptInAnswer = { success: boolean; dnc: boolean; error: string | null };

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

/** Shared by the opt-in page's form action and POST /api/phone-optin. */
export async function runOptIn(request: Request, fields: unknown, pageUrl?: string | null): Promise<OptInOutcome> {
  const result = await evaluateOptIn(request, fields, pageUrl);
  if (!result.answer.success) result.actionData.values = submittedValues(fields);
  return result;
}

async function evaluateOptIn(request: Request, fields: unknown, pageUrl?: string | null): Promise<OptInOutcome> {
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
  const limit = await hitRateLimit(db, RATE_LIMITS.optInPerIp, clientIp(request));
  if (!limit.allowed) {
    return { ...outcome(429, NOTICES.tooManyRequests), retryAfter: limit.retryAfterSeconds };
  }

  const env = getEnv();
  const result = await optInToSms(
    db,
    { ...parsed.data, source: "opt-in", evidence: requestEvidence(request, pageUrl) },
    { siteName: env.SITE_NAME, dncPolicy: env.DNC_POLICY },
  );
  return optInOutcome(result);
}
