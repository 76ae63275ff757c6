import { createHmac, randomBytes } from "node:crypto";

/** Bytes of the day's salt. */
export const SALT_BYTES = 32;
/** Bytes of a visitor hash kept: 2^-128 collisions, and short rows. */
export const VISITOR_HASH_BYTES = 16;

export function newSalt() {
  return randomBytes(SALT_BYTES);
}

/**
 * The daily unique visitor: a keyed hash (HMAC-SHA-256 under the day's salt) of the network, the
 * browser family and version with its system, and the site. The same person on the same network
 * and browser is one visitor that day whichever process answers; the next day's salt makes them
 * another, so days cannot be joined, and once a salt is deleted nobody can recompute its hashes.
 */
export function visitorHash(salt: Buffer, site: string, network: string, family: string) {
  return createHmac("sha256", salt).update(`${site}\n${network}\n${family}`).digest().subarray(0, VISITOR_HASH_BYTES);
}
