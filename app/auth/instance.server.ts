import { getDatabase } from "~/db/database.server";
import { getEnv } from "~/http/env.server";
import { createAuth, type Auth } from "./auth.server";
import { authSecret } from "./secret.server";

type Holder = { auth?: Promise<Auth> };
const holder: Holder = ((globalThis as { __appAuth?: Holder }).__appAuth ??= {});

/** The process's better-auth instance, on the process's database. */
export function getAuth(): Promise<Auth> {
  holder.auth ??= getDatabase().then(({ db }) => {
    const env = getEnv();
    return createAuth({ db, env, secret: authSecret(env), siteName: env.SITE_NAME });
  });
  holder.auth.catch(() => {
    holder.auth = undefined;
  });
  return holder.auth;
}

export type SessionUser = {
  id: string;
  email: string;
  emailVerified: boolean;
  role: string | null;
  twoFactorEnabled: boolean;
  /** Confirmed by a texted code (only confirmed numbers are stored). */
  phoneNumber: string | null;
  sessionId: string;
  sessionCreatedAt: Date;
};

/** The signed-in user of a request, checked against the database (never a cached cookie). */
export async function getSessionUser(request: Request): Promise<SessionUser | null> {
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers: request.headers, query: { disableCookieCache: true } });
  if (!session) return null;
  const user = session.user as typeof session.user & { role?: string | null; twoFactorEnabled?: boolean | null; phoneNumber?: string | null; phoneNumberVerified?: boolean | null };
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerified,
    role: user.role ?? null,
    twoFactorEnabled: Boolean(user.twoFactorEnabled),
    phoneNumber: user.phoneNumberVerified ? (user.phoneNumber ?? null) : null,
    sessionId: session.session.id,
    sessionCreatedAt: new Date(session.session.createdAt),
  };
}

/** The person's signed-in devices, from better-auth's own session store (newest use first). */
export async function listUserSessions(userId: string) {
  const auth = await getAuth();
  const context = await auth.$context;
  const sessions = await context.internalAdapter.listSessions(userId);
  return sessions
    .filter((entry) => new Date(entry.expiresAt).getTime() > Date.now())
    .sort((a, b) => new Date(b.updatedAt).getTime() - new Date(a.updatedAt).getTime());
}
