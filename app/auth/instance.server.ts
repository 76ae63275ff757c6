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

export type SessionUser = { id: string; email: string; role: string | null; twoFactorEnabled: boolean };

/** The signed-in user of a request, checked against the database (never a cached cookie). */
export async function getSessionUser(request: Request): Promise<SessionUser | null> {
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers: request.headers, query: { disableCookieCache: true } });
  if (!session) return null;
  const user = session.user as typeof session.user & { role?: string | null; twoFactorEnabled?: boolean | null };
  return { id: user.id, email: user.email, role: user.role ?? null, twoFactorEnabled: Boolean(user.twoFactorEnabled) };
}
