import { createHash, randomBytes } from "node:crypto";

/** 256 random bits, URL-safe: the secret part of confirmation and unsubscribe links. */
export function newLinkToken() {
  return randomBytes(32).toString("base64url");
}

/** Confirmation tokens are stored hashed: a copy of the table cannot confirm anyone. */
export function tokenSha256(token: string) {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A token as it may arrive in a URL: the right alphabet and length, or nothing. */
export function cleanToken(value: string | null | undefined) {
  const token = (value ?? "").trim();
  return /^[A-Za-z0-9_-]{32,128}$/.test(token) ? token : null;
}
