import { data } from "react-router";
import webhooks from "twilio/lib/webhooks/webhooks.js";
import { BodyError, readFormBody } from "./body.server";
import { getEnv } from "./env.server";

/**
 * Reads a Twilio webhook and checks its X-Twilio-Signature against the public URL we gave Twilio
 * (from SITE_URL, never from the Host header, which a proxy may rewrite). Returns the form
 * fields, or null when the signature is missing or wrong. Without an auth token nothing verifies.
 */
export async function readSignedTwilioForm(request: Request, path: string) {
  const fields = await readFormBody(request, 64 * 1024);
  const token = getEnv().TWILIO_AUTH_TOKEN;
  const signature = request.headers.get("x-twilio-signature");
  if (!token || !signature) return null;
  const url = `${getEnv().SITE_URL}${path}${new URL(request.url).search}`;
  return webhooks.validateRequest(token, signature, url, fields) ? fields : null;
}

/** The signed fields, or the answer to send instead (400/413/415 for the body, 403 for the signature). */
export async function readTwilioWebhook(request: Request, path: string) {
  try {
    const fields = await readSignedTwilioForm(request, path);
    return fields ? { fields } : { answer: data({ error: "Invalid Twilio signature." }, { status: 403 }) };
  } catch (error) {
    if (error instanceof BodyError) return { answer: data({ error: error.message }, { status: error.status }) };
    throw error;
  }
}

export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';
