import { data } from "react-router";
import type { NewsletterActionData } from "~/components/site/newsletter-section";
import { getDb } from "~/db/database.server";
import { fieldErrors, NewsletterSchema } from "~/lib/forms";
import { parseInteraction } from "~/lib/interaction.server";
import { newsletterSuccessNotice, NOTICES, noticeWith, type Notice } from "~/lib/notices";
import { subscribeToNewsletter } from "~/services/subscription/newsletter-sign-up.server";
import { hitRateLimit, RATE_LIMITS } from "~/services/rate-limit.server";
import { BodyError, CONSENT_FORM_BODY_LIMIT, readFormBody } from "./body.server";
import { getEnv } from "./env.server";
import { smsOptInSettings } from "./opt-in.server";
import { clientIp, formSubmissionEvidence, requestGpc } from "./request.server";

type Field = "firstName" | "lastName" | "email" | "phone";

function submittedValues(fields: Record<string, string>) {
  const text = (name: Field) => (fields[name] ?? "").slice(0, 254);
  return { firstName: text("firstName"), lastName: text("lastName"), email: text("email"), phone: text("phone") };
}

/** The newsletter form's action (on /home, where the form posts). */
export async function newsletterAction(request: Request) {
  let fields: Record<string, string> = {};
  const answer = (status: number, ok: boolean, notice: Notice, extra: Partial<NewsletterActionData> = {}, headers?: HeadersInit) =>
    data<NewsletterActionData>(
      { form: "newsletter", ok, notice, ...(ok ? {} : { values: submittedValues(fields) }), ...extra },
      { status, headers },
    );

  try {
    fields = await readFormBody(request, CONSENT_FORM_BODY_LIMIT);
  } catch (error) {
    if (error instanceof BodyError) return answer(error.status, false, noticeWith("optInError", error.message));
    throw error;
  }
  const parsed = NewsletterSchema.safeParse(fields);
  if (!parsed.success) {
    const errors = fieldErrors<Field>(parsed.error);
    return answer(400, false, noticeWith("optInError", Object.values(errors)[0]), { fieldErrors: errors });
  }
  if (!parsed.data.termsConsent) return answer(400, false, NOTICES.consentRequired);

  const db = await getDb();
  const limit = await hitRateLimit(db, RATE_LIMITS.newsletterPerIp, clientIp(request));
  if (!limit.allowed) {
    return answer(429, false, NOTICES.tooManyRequests, {}, { "Retry-After": String(limit.retryAfterSeconds) });
  }

  const env = getEnv();
  const { evidence, servedPageSha256 } = await formSubmissionEvidence(db, request, fields);
  const result = await subscribeToNewsletter(
    db,
    { ...parsed.data, evidence, interaction: parseInteraction(fields.interaction), servedPageSha256, gpc: requestGpc(request) },
    { ...smsOptInSettings(env), siteUrl: env.SITE_URL },
  );
  if (!result.ok) {
    if (result.code === "invalid_phone") {
      return answer(400, false, noticeWith("optInError", result.message), { fieldErrors: { phone: result.message } });
    }
    return answer(400, false, NOTICES.consentRequired);
  }
  // The spec's success notice stays; further notices ask for the e-mail confirmation and say what
  // happens with the number (a text to confirm, or none because it is on the Do-Not-Call list).
  const extraNotices: Notice[] = [];
  if (result.confirmationSent) extraNotices.push(NOTICES.newsletterConfirmSent);
  if (result.sms && !result.sms.ok && result.sms.code === "dnc") extraNotices.push(NOTICES.optInDnc);
  if (result.sms?.ok && result.sms.pending) extraNotices.push(NOTICES.optInConfirmPending);
  return answer(200, true, newsletterSuccessNotice(env.SITE_NAME), extraNotices.length > 0 ? { extraNotices } : {});
}
