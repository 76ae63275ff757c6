import { data, redirect } from "react-router";
import { z } from "zod";
import { getDb } from "~/db/database.server";
import { requestEvidence } from "~/http/request.server";
import { EMAIL_MAX } from "~/lib/forms";
import { NOTICES, noticeWith, type Notice } from "~/lib/notices";
import { checkUsMobile } from "~/lib/phone";
import { recordPhoneConfirmed, stopSubscription, stopSubscriptionsOfDeletedAccount, type AccountIdentity } from "~/services/account.server";
import { hitRateLimit, RATE_LIMITS } from "~/services/rate-limit.server";
import { isAPIError } from "better-auth/api";
import { getAuth } from "./instance.server";
import { callAuthEndpoint, cookieHeaders, retryAfterHeaders, type AuthCall } from "./call-auth.server";
import type { SessionUser } from "./instance.server";
import { PASSWORD_MAX } from "./passwords.server";
import { PHONE_CODE_TRIES } from "./auth.server";
import { passwordChangedText } from "./emails";
import { getEnv } from "~/http/env.server";
import { enqueueEmail } from "~/services/providers/email.server";

export const ACCOUNT_INTENTS = [
  "change-email",
  "change-password",
  "sign-out-everywhere",
  "send-phone-code",
  "confirm-phone",
  "stop-sms",
  "stop-email",
  "delete-account",
] as const;
export type AccountIntent = (typeof ACCOUNT_INTENTS)[number];

/**
 * `phone` is the number a code went to; `askCode` keeps the page asking for that number's code
 * (after it was sent, and after a wrong code while the code still has tries left).
 */
export type AccountActionData = { intent: AccountIntent | null; notice: Notice; phone?: string; askCode?: boolean };

const fail = (intent: AccountIntent | null, description: string, status = 400, extra: Partial<AccountActionData> = {}, headers?: Record<string, string>) =>
  data<AccountActionData>({ intent, notice: noticeWith("accountActionFailed", description), ...extra }, { status, headers });

const ok = (intent: AccountIntent, notice: Notice, extra: Partial<AccountActionData> = {}, init?: ResponseInit) =>
  data<AccountActionData>({ intent, notice, ...extra }, init);

/** better-auth's answer in words a reader understands; its own message only where it is meant for people. */
function authFailure(intent: AccountIntent, call: AuthCall, fallback: string, extra: Partial<AccountActionData> = {}) {
  if (call.status === 429) return fail(intent, "Too many attempts. Please wait a minute and try again.", 429, extra, retryAfterHeaders(call));
  const code = String(call.body?.code ?? "");
  const messages: Record<string, string> = {
    INVALID_PASSWORD: "That password is not right.",
    PASSWORD_TOO_SHORT: "The new password must be at least 6 characters.",
    PASSWORD_TOO_LONG: "The new password must be at most 128 characters.",
    PASSWORD_TOO_WEAK: typeof call.body?.message === "string" ? call.body.message : "That password is too common.",
    SESSION_EXPIRED: "Enter your password, or sign in again and delete within 10 minutes.",
    INVALID_OTP: `That code is not right. Check the text and type it again (${PHONE_CODE_TRIES} tries per code).`,
    OTP_EXPIRED: "That code has expired. Send a new one.",
    OTP_NOT_FOUND: "That code is no longer valid. Send a new one.",
    TOO_MANY_ATTEMPTS: "Too many wrong codes. Send a new one.",
    INVALID_PHONE_NUMBER: "Please enter a valid US mobile number.",
    PHONE_NUMBER_EXIST: "That number belongs to another account.",
  };
  const status = call.status === 401 ? 401 : 400;
  return fail(intent, messages[code] ?? fallback, status, { ...extra, ...(code === "INVALID_OTP" ? { askCode: true } : {}) });
}

const NewEmailSchema = z.string().trim().toLowerCase().min(1).max(EMAIL_MAX).pipe(z.email());
const PasswordSchema = z.string().min(1).max(PASSWORD_MAX);

/** The /account form posts: each intent through better-auth's own endpoint, or one service call. */
export async function accountAction(request: Request, user: SessionUser, form: Record<string, string>) {
  const intent = (ACCOUNT_INTENTS as readonly string[]).includes(form.intent ?? "") ? (form.intent as AccountIntent) : null;
  if (!intent) return fail(null, "Unknown action.");
  const identity: AccountIdentity = { email: user.email, emailVerified: user.emailVerified, phoneE164: user.phoneNumber };

  switch (intent) {
    case "change-email": {
      const parsed = NewEmailSchema.safeParse(form.newEmail ?? "");
      if (!parsed.success) return fail(intent, "Please enter a valid e-mail address.");
      if (parsed.data === user.email.toLowerCase()) return fail(intent, "That is already your e-mail address.");
      // Whoever holds an open session must not move the account to their own address: the password first.
      const password = PasswordSchema.safeParse(form.currentPassword ?? "");
      if (!password.success) return fail(intent, "Enter your current password to change the e-mail address.");
      const limit = await hitRateLimit(await getDb(), RATE_LIMITS.accountPasswordPerUser, user.id);
      if (!limit.allowed) return fail(intent, "Too many attempts. Please wait a few minutes and try again.", 429, {}, { "Retry-After": String(limit.retryAfterSeconds) });
      const auth = await getAuth();
      const checked = await auth.api.verifyPassword({ body: { password: password.data }, headers: request.headers }).then(
        () => true,
        (error: unknown) => {
          if (isAPIError(error)) return false;
          throw error;
        },
      );
      if (!checked) return fail(intent, "That password is not right.", 401);
      const call = await callAuthEndpoint(request, "/change-email", { newEmail: parsed.data, callbackURL: "/account?notice=emailChanged" });
      // The same answer whether or not the address belongs to someone else (no account discovery).
      return call.ok ? ok(intent, NOTICES.emailChangeSent) : authFailure(intent, call, "We could not change your e-mail address.");
    }
    case "change-password": {
      const current = PasswordSchema.safeParse(form.currentPassword ?? "");
      const next = PasswordSchema.safeParse(form.newPassword ?? "");
      if (!current.success || !next.success) return fail(intent, "Enter your current password and a new one.");
      const call = await callAuthEndpoint(request, "/change-password", {
        currentPassword: current.data,
        newPassword: next.data,
        revokeOtherSessions: true,
      });
      if (!call.ok) return authFailure(intent, call, "We could not change your password.");
      const env = getEnv();
      await enqueueEmail(await getDb(), { to: user.email, kind: "notice", ...passwordChangedText(env.SITE_NAME, `${env.SITE_URL}/auth/forgot`) });
      // Revoking the other sessions gives this one a new token: pass its cookie on.
      return ok(intent, NOTICES.passwordChanged, {}, { headers: cookieHeaders(call) });
    }
    case "sign-out-everywhere": {
      const revoked = await callAuthEndpoint(request, "/revoke-sessions");
      if (!revoked.ok) return authFailure(intent, revoked, "We could not sign you out everywhere.");
      const signOut = await callAuthEndpoint(request, "/sign-out");
      throw redirect("/auth?notice=signedOutEverywhere", { headers: cookieHeaders(signOut) });
    }
    case "send-phone-code": {
      const phone = checkUsMobile(form.phone ?? "");
      if (!phone.ok) return fail(intent, phone.message, 400, { phone: (form.phone ?? "").slice(0, 30) });
      const call = await callAuthEndpoint(request, "/phone-number/send-otp", { phoneNumber: phone.e164 });
      return call.ok
        ? ok(intent, NOTICES.phoneCodeSent, { phone: phone.e164, askCode: true })
        : authFailure(intent, call, "We could not send a code to that number.", { phone: phone.e164 });
    }
    case "confirm-phone": {
      const phone = checkUsMobile(form.phone ?? "");
      const code = (form.code ?? "").replace(/\s/g, "");
      if (!phone.ok) return fail(intent, "Please enter a valid US mobile number.");
      // A mistyped code costs no try: the page keeps asking for it.
      if (!/^\d{6}$/.test(code)) return fail(intent, "Enter the 6-digit code from the text.", 400, { phone: phone.e164, askCode: true });
      const call = await callAuthEndpoint(request, "/phone-number/verify", { phoneNumber: phone.e164, code, updatePhoneNumber: true });
      // A wrong code keeps the code field (INVALID_OTP sets askCode); an expired or used-up code
      // brings back the number form, filled in, to send a new one.
      if (!call.ok) return authFailure(intent, call, "We could not confirm that number.", { phone: phone.e164 });
      await recordPhoneConfirmed(await getDb(), phone.e164, requestEvidence(request));
      return ok(intent, NOTICES.phoneConfirmed);
    }
    case "stop-sms":
    case "stop-email": {
      const channel = intent === "stop-sms" ? "sms" : "email";
      const result = await stopSubscription(await getDb(), identity, channel, requestEvidence(request));
      return result.ok ? ok(intent, NOTICES.subscriptionStopped) : fail(intent, "There is no such subscription on your account.", 404);
    }
    case "delete-account": {
      const password = (form.password ?? "").slice(0, PASSWORD_MAX);
      const call = await callAuthEndpoint(request, "/delete-user", password ? { password } : {});
      if (!call.ok) return authFailure(intent, call, "We could not delete your account.");
      await stopSubscriptionsOfDeletedAccount(await getDb(), identity, requestEvidence(request));
      throw redirect("/?notice=accountDeleted", { headers: cookieHeaders(call) });
    }
  }
}
