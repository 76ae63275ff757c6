import { data, redirect } from "react-router";
import { z } from "zod";
import { NOTICES, noticeWith, type Notice } from "~/lib/notices";
import { safeReturnPath } from "~/lib/return-path";
import { PASSWORD_MAX } from "./passwords.server";
import { callAuthEndpoint, cookieHeaders, retryAfterHeaders } from "./call-auth.server";
import { landingAfterSignIn, roleIn } from "./landing.server";

export type AuthActionData = { notice: Notice; tab: "signin" | "signup"; email?: string };

const CredentialsSchema = z.object({
  email: z.string().trim().min(1).max(254).pipe(z.email()),
  password: z.string().min(1).max(PASSWORD_MAX),
});

/** better-auth's codes to what a person reads; unknown e-mail and wrong password read the same. */
function signInMessage(status: number, body: Record<string, unknown> | null) {
  const code = String(body?.code ?? "");
  if (status === 429 || code === "ACCOUNT_LOCKED") return "Too many sign-in attempts. Please wait a few minutes and try again.";
  if (code === "EMAIL_NOT_VERIFIED") return "Please verify your email address first: use the link we sent you when you signed up.";
  return "Invalid email or password.";
}

function signUpMessage(status: number, body: Record<string, unknown> | null) {
  const code = String(body?.code ?? "");
  if (status === 429) return "Too many attempts. Please wait a minute and try again.";
  if (code === "PASSWORD_TOO_SHORT") return "Password must be at least 6 characters.";
  if (code === "PASSWORD_TOO_LONG") return "Password must be at most 128 characters.";
  if (typeof body?.message === "string" && code === "PASSWORD_TOO_WEAK") return body.message;
  return "We could not create your account. Please check your email address and try again.";
}

/** The /auth form: sign in or sign up, by intent, through better-auth's HTTP pipeline. */
export async function authFormAction(request: Request, form: Record<string, string>) {
  const tab = form.intent === "signup" ? "signup" : "signin";
  const parsed = CredentialsSchema.safeParse(form);
  const email = typeof form.email === "string" ? form.email.slice(0, 254) : "";
  if (!parsed.success) {
    const notice = noticeWith(tab === "signup" ? "signUpFailed" : "signInFailed", "Please enter your email address and password.");
    return data<AuthActionData>({ notice, tab, email }, { status: 400 });
  }

  if (tab === "signin") {
    const call = await callAuthEndpoint(request, "/sign-in/email", { email: parsed.data.email, password: parsed.data.password });
    const requested = new URL(request.url).searchParams.get("redirectTo");
    if (call.ok && call.body?.twoFactorRedirect) {
      // The role is known once the second factor is checked: the way back goes along only if given.
      const keep = requested ? `?redirectTo=${encodeURIComponent(safeReturnPath(requested))}` : "";
      throw redirect(`/auth/two-factor${keep}`, { headers: cookieHeaders(call) });
    }
    if (call.ok) {
      const returnTo = landingAfterSignIn(requested, roleIn(call.body));
      const separator = returnTo.includes("?") ? "&" : "?";
      throw redirect(`${returnTo}${separator}notice=signedIn`, { headers: cookieHeaders(call) });
    }
    return data<AuthActionData>(
      { notice: noticeWith("signInFailed", signInMessage(call.status, call.body)), tab, email },
      { status: call.status === 429 ? 429 : 401, headers: retryAfterHeaders(call) },
    );
  }

  const call = await callAuthEndpoint(request, "/sign-up/email", {
    email: parsed.data.email,
    password: parsed.data.password,
    name: parsed.data.email.split("@")[0],
    callbackURL: "/?notice=emailVerified",
  });
  if (call.ok) return data<AuthActionData>({ notice: NOTICES.accountCreated, tab });
  return data<AuthActionData>(
    { notice: noticeWith("signUpFailed", signUpMessage(call.status, call.body)), tab, email },
    { status: call.status === 429 ? 429 : 400, headers: retryAfterHeaders(call) },
  );
}
