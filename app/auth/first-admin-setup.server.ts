import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Db } from "~/db/client.server";
import { adminExists } from "./admin-account.server";

type Holder = { token?: string };
// One token per process, also across the duplicate module graphs of the dev server.
const holder: Holder = ((globalThis as { __firstAdminSetup?: Holder }).__firstAdminSetup ??= {});

/**
 * At start, when no admin exists: a random one-time token for /setup, kept only in this process's
 * memory (gone when it is used or the server restarts). Returns the link to print, or null.
 */
export async function openFirstAdminSetup(db: Db, siteUrl: string): Promise<string | null> {
  holder.token = undefined;
  if (await adminExists(db)) return null;
  holder.token = randomBytes(32).toString("base64url");
  return `${siteUrl}/setup?token=${holder.token}`;
}

export function setupTokenMatches(candidate: string | null | undefined): boolean {
  const token = holder.token;
  if (!token || !candidate) return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Takes the token if it matches: of two requests with it, only one gets it. */
export function consumeSetupToken(candidate: string | null | undefined): boolean {
  if (!setupTokenMatches(candidate)) return false;
  holder.token = undefined;
  return true;
}

/** A failed creation gives the token back for another try. */
export function restoreSetupToken(token: string) {
  holder.token ??= token;
}
