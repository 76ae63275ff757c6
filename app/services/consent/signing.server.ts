import { createHash, createPrivateKey, createPublicKey, hkdfSync, sign, verify, type KeyObject } from "node:crypto";
import { authSecret } from "~/auth/secret.server";
import type { Env } from "~/http/env.server";

/**
 * The key that signs the consent chain's head and the certificates (decision 069). Ed25519, so a
 * lawyer or a court expert can check a signature with the public key alone, and whoever holds the
 * public key (or the database) cannot sign. The private key is derived from a secret kept outside
 * the database, configured like AUTH_SECRET.
 */
export type ConsentSigner = ConsentPublicKey & {
  publicKeyPem: string;
  sign: (message: string) => string;
};

/**
 * A key that checks signatures and cannot make them: the current signer's, or a retired one
 * configured in CONSENT_RETIRED_PUBLIC_KEYS (its secret may be destroyed).
 */
export type ConsentPublicKey = {
  /** First 16 hex digits of SHA-256 over the raw public key. */
  keyId: string;
  /** The raw 32-byte public key, base64. */
  publicKey: string;
  verify: (message: string, signature: string) => boolean;
};

// PKCS#8 wrapping of a raw Ed25519 seed (RFC 8410): node:crypto imports keys only in a container.
const ED25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

export function consentSigner(secret: string): ConsentSigner {
  const seed = Buffer.from(hkdfSync("sha256", secret, "patriot-investor", "consent-signing-key-v1", 32));
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: "der",
    type: "pkcs8",
  });
  const publicKey: KeyObject = createPublicKey(privateKey);
  return {
    ...publicKeyOf(publicKey),
    publicKeyPem: publicKey.export({ format: "pem", type: "spki" }).toString(),
    sign: (message) => sign(null, Buffer.from(message, "utf8"), privateKey).toString("base64"),
  };
}

/** A public key as ConsentSigner.publicKey prints it (the raw 32 bytes, base64), for checking signatures only. */
export function consentPublicKey(rawBase64: string): ConsentPublicKey {
  const raw = Buffer.from(rawBase64, "base64");
  if (raw.length !== 32) throw new Error("an Ed25519 public key is 32 bytes");
  return publicKeyOf(
    createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: raw.toString("base64url") }, format: "jwk" }),
  );
}

function publicKeyOf(publicKey: KeyObject): ConsentPublicKey {
  const rawBytes = Buffer.from(publicKey.export({ format: "jwk" }).x!, "base64url");
  return {
    keyId: createHash("sha256").update(rawBytes).digest("hex").slice(0, 16),
    publicKey: rawBytes.toString("base64"),
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

let cachedRetired: { configured: string; currentKeyId: string; keys: ConsentPublicKey[] } | undefined;

/**
 * CONSENT_RETIRED_PUBLIC_KEYS as keys: the keys that signed heads before a rotation and sign no
 * more. Only their public keys are configured, outside the database, so a head is trusted for
 * what this setting says and never for the public key stored beside it. The current key is left
 * out (a key that still signs is not retired), and so is a key listed twice.
 */
export function retiredKeysFromEnv(env: Env): ConsentPublicKey[] {
  const currentKeyId = signerFromEnv(env).keyId;
  const configured = env.CONSENT_RETIRED_PUBLIC_KEYS.join(",");
  if (cachedRetired?.configured !== configured || cachedRetired.currentKeyId !== currentKeyId) {
    const byKeyId = new Map(env.CONSENT_RETIRED_PUBLIC_KEYS.map(consentPublicKey).map((key) => [key.keyId, key]));
    byKeyId.delete(currentKeyId);
    cachedRetired = { configured, currentKeyId, keys: [...byKeyId.values()] };
  }
  return cachedRetired.keys;
}
