import type { Route } from "./+types/api.email.events.mailgun";
import { getDb } from "~/db/database.server";
import { BodyError, readJsonBody } from "~/http/body.server";
import { getEnv } from "~/http/env.server";
import { logger } from "~/http/logger.server";
import { applyMailgunEvent, verifyMailgunWebhook } from "~/services/newsletter/mailgun-events.server";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" } });

/** Mailgun's event webhook (bounces, complaints, unsubscribes); on only with its signing key set. */
export async function action({ request }: Route.ActionArgs) {
  const key = getEnv().MAILGUN_WEBHOOK_SIGNING_KEY;
  if (!key) return json(404, { error: "Not configured: set MAILGUN_WEBHOOK_SIGNING_KEY." });
  if (request.method !== "POST") return json(405, { error: "Use POST." });
  let body: unknown;
  try {
    body = await readJsonBody(request, 64 * 1024);
  } catch (error) {
    if (error instanceof BodyError) return json(error.status, { error: error.message });
    throw error;
  }
  const verdict = verifyMailgunWebhook(body, key);
  if (!verdict.ok) {
    logger.warn({ status: verdict.status, reason: verdict.error }, "Mailgun webhook refused");
    return json(verdict.status, { error: verdict.error });
  }
  const result = await applyMailgunEvent(await getDb(), verdict.webhook["event-data"]);
  return json(200, result);
}

export function loader() {
  return json(405, { error: "Use POST." });
}
