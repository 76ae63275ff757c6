import { data } from "react-router";
import { HONEYPOT_FIELD, type ContactActionData, type ContactField } from "~/components/site/contact-form";
import { getDb } from "~/db/database.server";
import { ContactSchema, fieldErrors } from "~/lib/forms";
import { NOTICES, noticeWith, type Notice } from "~/lib/notices";
import { saveContactMessage } from "~/services/contact.server";
import { hitRateLimit, RATE_LIMITS } from "~/services/rate-limit.server";
import { logger } from "./logger.server";
import { BodyError, readFormBody } from "./body.server";
import { clientIp } from "./request.server";

function answer(status: number, ok: boolean, notice: Notice, extra: Partial<ContactActionData> = {}, headers?: HeadersInit) {
  return data<ContactActionData>({ form: "contact", ok, notice, ...extra }, { status, headers });
}

export async function contactAction(request: Request) {
  let fields: Record<string, string>;
  try {
    fields = await readFormBody(request);
  } catch (error) {
    if (error instanceof BodyError) return answer(error.status, false, noticeWith("contactInvalid", error.message));
    throw error;
  }
  // A filled honeypot is a bot: it gets the same answer as a person and nothing is stored.
  if (fields[HONEYPOT_FIELD]) {
    logger.info({ ip: clientIp(request) }, "contact form honeypot filled; message dropped");
    return answer(200, true, NOTICES.contactSent);
  }
  const parsed = ContactSchema.safeParse(fields);
  if (!parsed.success) {
    const values = Object.fromEntries(
      (["name", "email", "phone", "subject", "message"] as const).map((name) => [name, (fields[name] ?? "").slice(0, 5000)]),
    );
    return answer(400, false, NOTICES.contactInvalid, { fieldErrors: fieldErrors<ContactField>(parsed.error), values });
  }
  const db = await getDb();
  const limit = await hitRateLimit(db, RATE_LIMITS.contactPerIp, clientIp(request));
  if (!limit.allowed) {
    return answer(429, false, NOTICES.tooManyRequests, {}, { "Retry-After": String(limit.retryAfterSeconds) });
  }
  await saveContactMessage(db, parsed.data, {
    ip: clientIp(request),
    userAgent: request.headers.get("user-agent")?.slice(0, 1000) ?? null,
  });
  return answer(200, true, NOTICES.contactSent);
}
