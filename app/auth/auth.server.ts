import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import { admin } from "better-auth/plugins/admin";
import { twoFactor } from "better-auth/plugins/two-factor";
import { phoneNumber } from "better-auth/plugins/phone-number";
import { randomUUID } from "node:crypto";
import type { Db } from "~/db/client.server";
import * as schema from "~/db/schema";
import type { Env } from "~/http/env.server";
import { noteIfDatabaseUnavailable } from "~/http/database-unavailable.server";
import { logger } from "~/http/logger.server";
import { authLogSink } from "./auth-logger.server";
import { withAccountConflicts } from "./account-conflicts.server";
import { EMAIL_MAX } from "~/lib/forms";
import { enqueueEmail } from "~/services/providers/email.server";
import { enqueueSms } from "~/services/sending/outbox.server";
import { checkUsMobile } from "~/lib/phone";
import { clearFailedSignIns, failedSignInLock, recordFailedSignIn } from "./sign-in-lock.server";
import { isCommonPassword, PASSWORD_MAX, PASSWORD_MIN, WEAK_PASSWORD_MESSAGE } from "./passwords.server";
import { verifyEmailText, resetPasswordText } from "./emails";

export const READER_ROLE = "reader";
export const ADMIN_ROLE = "admin";
/** Writes and publishes articles (/admin/articles); does not manage people or send to subscribers. */
export const EDITOR_ROLE = "editor";

const PASSWORD_PATHS = new Set(["/sign-up/email", "/reset-password", "/change-password"]);
/** The phone-number plugin confirms a reader's number; signing in or resetting by phone stays off. */
const REFUSED_PATHS = new Set(["/sign-in/phone-number", "/phone-number/request-password-reset", "/phone-number/reset-password"]);
/** Texting a code costs money and reaches a stranger's phone: signed-in people only. */
const SIGNED_IN_PATHS = new Set(["/phone-number/send-otp", "/phone-number/verify"]);
export const PHONE_CODE_SECONDS = 600;
/** Wrong codes a texted code survives before a new one must be sent. */
export const PHONE_CODE_TRIES = 3;
const ACCOUNT_FIELD_PATHS = new Set(["/sign-up/email", "/update-user"]);
export const ACCOUNT_NAME_MAX = 100;

/** better-auth's limiter (seconds), kept in its `rate_limit` table. */
export const AUTH_RATE_LIMITS = {
  window: 60,
  max: 100,
  customRules: {
    "/sign-in/email": { window: 10, max: 3 },
    "/sign-up/email": { window: 60, max: 5 },
    "/request-password-reset": { window: 60, max: 3 },
    "/send-verification-email": { window: 60, max: 3 },
    "/change-email": { window: 60, max: 3 },
    "/phone-number/send-otp": { window: 60, max: 3 },
    "/phone-number/verify": { window: 60, max: 5 },
    "/delete-user": { window: 60, max: 5 },
    "/two-factor/verify-totp": { window: 10, max: 3 },
    "/two-factor/verify-backup-code": { window: 10, max: 3 },
  },
};

/** Past this, no row of better-auth's limiter counts any more (housekeeping deletes it). */
export const AUTH_RATE_LIMIT_LONGEST_WINDOW = Math.max(
  AUTH_RATE_LIMITS.window,
  ...Object.values(AUTH_RATE_LIMITS.customRules).map((rule) => rule.window),
);

/**
 * better-auth with our rules: e-mail verification before sign-in, 6-character minimum plus a
 * common-password list, server sessions in an HttpOnly cookie that slide with use, rate limits in
 * the database (all processes), a per-account lock after repeated failures, readers by default.
 */
export function createAuth(options: { db: Db; env: Env; secret: string; siteName: string }) {
  const { db, env } = options;
  const production = env.NODE_ENV === "production";
  return betterAuth({
    appName: options.siteName,
    baseURL: env.SITE_URL,
    basePath: "/api/auth",
    secret: options.secret,
    // The request's own origin is the public one (server/public-url.ts wrote it into Host and
    // X-Forwarded-Proto): a page of this site served on another of its hosts may post here.
    trustedOrigins: (request) => (request ? [env.SITE_URL, new URL(request.url).origin] : [env.SITE_URL]),
    telemetry: { enabled: false },
    // Its own console lines (coloured text) become pino JSON; pino's level decides what is written.
    logger: { level: "debug", disableColors: true, log: authLogSink(logger) },
    database: withAccountConflicts(drizzleAdapter(db, { provider: "pg", schema, transaction: true })),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN,
      maxPasswordLength: PASSWORD_MAX,
      requireEmailVerification: true,
      autoSignIn: false,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 3600,
      sendResetPassword: async ({ user, url }) => {
        await enqueueEmail(db, { to: user.email, kind: "reset_password", ...resetPasswordText(options.siteName, url) });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 24 * 3600,
      sendVerificationEmail: async ({ user, url }) => {
        await enqueueEmail(db, { to: user.email, kind: "verify_email", ...verifyEmailText(options.siteName, url) });
      },
    },
    session: {
      // Sliding: renewed on use (at most hourly), gone after three idle days.
      expiresIn: 3 * 24 * 3600,
      updateAge: 3600,
      // Deleting the account without the password needs a sign-in within the last 10 minutes.
      freshAge: 600,
    },
    user: {
      // A verified address changes only once the new one is verified (the link goes to it).
      changeEmail: { enabled: true },
      // Consent evidence is not linked to the account and stays (COMPLIANCE.md).
      deleteUser: { enabled: true },
    },
    rateLimit: { enabled: true, storage: "database", ...AUTH_RATE_LIMITS },
    advanced: {
      // Our server puts the trusted client address in X-Forwarded-For (server/client-ip.ts).
      ipAddress: { ipAddressHeaders: ["x-forwarded-for"] },
      useSecureCookies: production && env.SITE_URL.startsWith("https://"),
      // better-auth switches origin checks off under NODE_ENV=test; keep them on everywhere.
      disableOriginCheck: false,
    },
    onAPIError: {
      // A lost database is an outage to report as 503, not a bug (server/app.ts answers it).
      onError(error) {
        if (isAPIError(error) || noteIfDatabaseUnavailable(error)) return;
        logger.error({ err: error }, "unexpected error in an auth endpoint");
      },
    },
    plugins: [
      admin({ defaultRole: READER_ROLE, adminRoles: [ADMIN_ROLE] }),
      twoFactor({ issuer: options.siteName }),
      phoneNumber({
        otpLength: 6,
        expiresIn: PHONE_CODE_SECONDS,
        allowedAttempts: PHONE_CODE_TRIES,
        phoneNumberValidator: (value) => checkUsMobile(value).ok,
        sendOTP: async ({ phoneNumber: to, code }) => {
          await enqueueSms(db, {
            toPhone: to,
            kind: "verification_code",
            body: `${options.siteName}: your confirmation code is ${code}. It expires in ${PHONE_CODE_SECONDS / 60} minutes.`,
            dedupeKey: `verification-code:${randomUUID()}`,
          });
        },
      }),
    ],
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        // Roles change on /admin/people only (audited, never the last admin): the admin plugin's
        // own endpoints (set-role, create-user, ban, impersonate...) stay closed.
        if (REFUSED_PATHS.has(ctx.path) || ctx.path.startsWith("/admin/")) throw new APIError("NOT_FOUND");
        if (SIGNED_IN_PATHS.has(ctx.path) && !(await getSessionFromCtx(ctx))) {
          throw new APIError("UNAUTHORIZED", { message: "Sign in first.", code: "UNAUTHORIZED" });
        }
        if (ACCOUNT_FIELD_PATHS.has(ctx.path)) {
          // better-auth stores any length of name and e-mail; hold them to our form limits.
          const { name, email } = (ctx.body ?? {}) as { name?: unknown; email?: unknown };
          if (typeof name === "string" && (name.trim() === "" || name.length > ACCOUNT_NAME_MAX)) {
            throw new APIError("BAD_REQUEST", { message: `Name must be 1 to ${ACCOUNT_NAME_MAX} characters.`, code: "INVALID_NAME" });
          }
          if (typeof email === "string" && email.length > EMAIL_MAX) {
            throw new APIError("BAD_REQUEST", { message: `Email must be at most ${EMAIL_MAX} characters.`, code: "INVALID_EMAIL" });
          }
        }
        if (PASSWORD_PATHS.has(ctx.path)) {
          const password = (ctx.body?.password ?? ctx.body?.newPassword) as unknown;
          if (typeof password === "string" && isCommonPassword(password)) {
            throw new APIError("BAD_REQUEST", { message: WEAK_PASSWORD_MESSAGE, code: "PASSWORD_TOO_WEAK" });
          }
        }
        if (ctx.path === "/sign-in/email" && typeof ctx.body?.email === "string") {
          const lock = await failedSignInLock(db, ctx.body.email);
          if (lock) {
            // Also refuses the right password until the lock ends: a guesser learns nothing.
            throw new APIError("TOO_MANY_REQUESTS", {
              message: "Too many failed sign-ins for this account. Please try again later.",
              code: "ACCOUNT_LOCKED",
            }, { "Retry-After": String(lock.retryAfterSeconds) });
          }
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== "/sign-in/email" || typeof ctx.body?.email !== "string") return;
        const returned = ctx.context.returned;
        if (isAPIError(returned) && returned.statusCode === 401) await recordFailedSignIn(db, ctx.body.email);
        else if (!isAPIError(returned)) await clearFailedSignIns(db, ctx.body.email);
      }),
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
