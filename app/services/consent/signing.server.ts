import { createHash, createPrivateKey, createPublicKey, hkdfSync, sign, verify, type KeyObject } from "node:crypto";
import { authSecret } from "~/auth/secret.server";
import type { Env } from "~/http/env.server";

/**
 * The key that signs the consent chain's head and the certificates (decision 069). Ed25519, so a
 * lawyer or a court expert can check a signature with the public key alone, and whoever holds the
 * public key (or the database) cannot sign. The private key is derived from a secret kept outside
 * the database, configured like AUTH_SECRET.
 */
export type ConsentSigner = {
  /** First 16 hex digits of SHA-256 over the raw public key. */
  keyId: string;
  /** The raw 32-byte public key, base64. */
  publicKey: string;
  publicKeyPem: string;
  sign: (message: string) => string;
  verify: (message: string, signature: string) => boolean;
};

// PKCS#8 wrapping of a raw Ed25519 seed (RFC 8410): node:crypto imports keys only in a container.
const ED25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

export function consentSigner(secret: string): ConsentSigner {
  const seed = Buffer.from(hkdfSync("sha256", secret, "patriot-investor", "consent-signing-key-v1", 32));
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: "der", type: "pkcs8" });
  const publicKey: KeyObject = createPublicKey(privateKey);
  const raw = publicKey.export({ format: "jwk" }).x!;
  const rawBytes = Buffer.from(raw, "base64url");
  return {
    keyId: createHash("sha256").update(rawBytes).digest("hex").slice(0, 16),
    publicKey: rawBytes.toString("base64"),
    publicKeyPem: publicKey.export({ format: "pem", type: "spki" }).toString(),
    sign: (message) => sign(null, Buffer.from(message, "utf8"), privateKey).toString("base64"),
    verify: (message, signature) => {
      try {
        return verify(null, Buffer.from(message, "utf8"), publicKey, Buffer.from(signature, "base64"));
      } catch {
        return false;
      }
    },
  };
}

/**
 * CONSENT_SIGNING_KEY, or a key derived from the accounts' secret (AUTH_SECRET, or the one
 * generated into DATA_DIR): processes sharing PostgreSQL share it the way they share that one.
 * The derivation uses its own label, so the signing key reveals nothing about the session secret.
 */
export function consentSigningSecret(env: Env) {
  return env.CONSENT_SIGNING_KEY ?? `derived-from-auth-secret:${authSecret(env)}`;
}

let cached: { secret: string; signer: ConsentSigner } | undefined;

export function signerFromEnv(env: Env) {
  const secret = consentSigningSecret(env);
  if (cached?.secret !== secret) cached = { secret, signer: consentSigner(secret) };
  return cached.signer;
}
