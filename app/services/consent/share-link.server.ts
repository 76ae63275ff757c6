import type { ConsentSigner } from "./signing.server";

/**
 * A link to one certificate that works without an account until it expires (decision 070): the
 * subscriber id and the expiry, signed with the consent key. Nothing is stored, so a link cannot be
 * withdrawn before it expires; keep the lifetime short (the admin picks 1 to 30 days).
 */
export { SHARE_MAX_DAYS } from "~/lib/consent-evidence-texts";

const message = (subscriberId: string, expiresAt: number) =>
  `consent-certificate-share-v1\n${subscriberId}\n${expiresAt}`;

export function createShareToken(signer: ConsentSigner, subscriberId: string, expiresAt: Date) {
  const seconds = Math.floor(expiresAt.getTime() / 1000);
  const signature = Buffer.from(signer.sign(message(subscriberId, seconds)), "base64").toString("base64url");
  return `${subscriberId}.${seconds}.${signature}`;
}

export type ShareCheck =
  | { ok: true; subscriberId: string; expiresAt: Date }
  | { ok: false; reason: "malformed" | "bad_signature" | "expired" };

export function checkShareToken(signer: ConsentSigner, token: string, now = new Date()): ShareCheck {
  const match =
    /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(\d{1,12})\.([A-Za-z0-9_-]{20,200})$/i.exec(
      token,
    );
  if (!match) return { ok: false, reason: "malformed" };
  const [, subscriberId, secondsText, signature] = match as unknown as [string, string, string, string];
  const seconds = Number(secondsText);
  if (!signer.verify(message(subscriberId, seconds), Buffer.from(signature, "base64url").toString("base64")))
    return { ok: false, reason: "bad_signature" };
  if (seconds * 1000 <= now.getTime()) return { ok: false, reason: "expired" };
  return { ok: true, subscriberId, expiresAt: new Date(seconds * 1000) };
}
