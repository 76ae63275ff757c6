#!/usr/bin/env node
// node scripts/verify-consent-certificate.mjs CERTIFICATE.json [PUBLIC_KEY_BASE64]
//
// Checks a signed consent certificate on its own, with Node's standard library only, so an examiner
// outside the company can run it without the product (docs/consent-certificate-check.md):
//   1. the certificate's signature, over its exact text, with the publisher's public key;
//   2. for each event, that its hash is the SHA-256 of its content as the record hashed it, and that
//      what the certificate shows (action, number, e-mail, disclosure, time…) is that content;
//   3. the links from each event, row by row, to a signed head of the chain, and that head's
//      signature with the same public key (or a retired key the certificate names).
// Exit code 0 when everything checks out, 1 when anything does not, 2 for a usage error.
import { createHash, createPublicKey, verify } from "node:crypto";
import { readFileSync } from "node:fs";

const [file, publicKeyArg] = process.argv.slice(2);
if (!file) {
  console.error("usage: node scripts/verify-consent-certificate.mjs CERTIFICATE.json [PUBLIC_KEY_BASE64]");
  process.exit(2);
}

const sha256 = (text) => createHash("sha256").update(text, "utf8").digest("hex");
const keyOf = (rawBase64) =>
  createPublicKey({
    key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(rawBase64, "base64").toString("base64url") },
    format: "jwk",
  });
const keyIdOf = (rawBase64) => sha256Bytes(Buffer.from(rawBase64, "base64")).slice(0, 16);
function sha256Bytes(bytes) {
  return createHash("sha256").update(bytes).digest("hex");
}
const verifies = (rawBase64, message, signature) => {
  try {
    return verify(null, Buffer.from(message, "utf8"), keyOf(rawBase64), Buffer.from(signature, "base64"));
  } catch {
    return false;
  }
};
// The texts the record hashes and signs (app/services/consent/chain.server.ts, chain-messages.ts).
const linkHash = (seq, prevHash, covered, version) =>
  sha256(`consent-chain-v${version}\n${seq}\n${prevHash}\n${covered}`);
const headMessage = (seq, hash, signedAt) => `consent-chain-head-v1\n${seq}\n${hash}\n${signedAt}`;

let failures = 0;
const ok = (text) => console.log(`  ok    ${text}`);
const fail = (text) => {
  failures++;
  console.log(`  FAIL  ${text}`);
};

const raw = readFileSync(file, "utf8").trim();
const prefix = '{"certificate":';
const cut = raw.lastIndexOf(',"signature":');
if (!raw.startsWith(prefix) || cut < 0) {
  console.error(
    `${file} is not a signed consent certificate (it starts with {"certificate": and ends with its "signature").`,
  );
  process.exit(2);
}
const payload = raw.slice(prefix.length, cut);
const { certificate, signature } = JSON.parse(raw);
const publisherKey = publicKeyArg ?? certificate.signingKey.publicKey;

console.log(`Certificate for subscriber ${certificate.subscriber.id}, issued ${certificate.issuedAt}`);
if (!publicKeyArg)
  console.log(
    `  note  no public key given: using the one inside the certificate (${publisherKey}); compare it with the publisher's published key`,
  );
if (keyIdOf(publisherKey) !== signature.keyId)
  fail(`the certificate names key ${signature.keyId}, the public key given is ${keyIdOf(publisherKey)}`);
else if (verifies(publisherKey, payload, signature.value))
  ok(`certificate signature (Ed25519, key ${signature.keyId})`);
else fail("the certificate's signature does not match its text: it was changed after it was signed");

// Keys a head may be signed with: the publisher's, and a retired key the certificate's heads name.
const headKey = (head) =>
  keyIdOf(publisherKey) === head.keyId ? publisherKey : keyIdOf(head.publicKey) === head.keyId ? head.publicKey : null;

// What the certificate shows, against the content the hash covers.
const shown = [
  ["action", "action"],
  ["channel", "channel"],
  ["phoneE164", "phone_e164"],
  ["phoneRaw", "phone_raw"],
  ["email", "email"],
  ["firstName", "first_name"],
  ["lastName", "last_name"],
  ["consentText", "consent_text"],
  ["consentVersion", "consent_version"],
  ["consentTextSha256", "consent_text_sha256"],
  ["termsText", "terms_text"],
  ["smsCheckbox", "sms_checkbox"],
  ["termsCheckbox", "terms_checkbox"],
  ["ip", "ip"],
  ["userAgent", "user_agent"],
  ["pageUrl", "page_url"],
  ["referrer", "referrer"],
  ["clickId", "click_id"],
];

for (const event of certificate.events) {
  console.log(`Event ${event.id}: ${event.action} at ${event.occurredAt}`);
  const { chain, proof } = event;
  if (!chain || !proof) {
    fail("not yet sealed into the chain when the certificate was issued");
    continue;
  }
  const content = JSON.parse(proof.eventJson);
  const differing = shown
    .filter(([mine, theirs]) => (event[mine] ?? null) !== (content[theirs] ?? null))
    .map(([mine]) => mine);
  if (String(content.id) !== String(event.id)) differing.push("id");
  // The record keeps microseconds; the certificate shows milliseconds.
  if (content.occurred_at.slice(0, 23) !== event.occurredAt.slice(0, 23)) differing.push("occurredAt");
  if (differing.length > 0) fail(`what the certificate shows differs from the hashed content: ${differing.join(", ")}`);
  else ok(`shown details are the hashed content (time to the microsecond: ${content.occurred_at})`);

  const covered = proof.version >= 5 ? sha256(proof.eventJson) : proof.eventJson;
  const hash = linkHash(chain.seq, chain.prevHash, covered, proof.version);
  if (hash !== chain.hash) {
    fail(`seq ${chain.seq}: the content does not hash to ${chain.hash}`);
    continue;
  }
  ok(`seq ${chain.seq}: hash ${hash} (chain version ${proof.version})`);

  if (!proof.head) {
    fail("no signed head covered this event when the certificate was issued (heads are signed within a minute)");
    continue;
  }
  let current = hash;
  let linked = true;
  for (const link of proof.links) {
    if (link.digest === null) {
      fail(
        `seq ${link.seq} was sealed as version ${link.version}, which cannot be linked without its content; ask the publisher to run npm run consent:verify`,
      );
      linked = false;
      break;
    }
    current = linkHash(link.seq, current, link.digest, link.version);
  }
  if (!linked) continue;
  if (current !== proof.head.hash) {
    fail(
      `the ${proof.links.length} links after seq ${chain.seq} do not lead to the signed head at seq ${proof.head.seq}`,
    );
    continue;
  }
  ok(`${proof.links.length} links lead to the head at seq ${proof.head.seq}`);
  const key = headKey(proof.head);
  if (!key)
    fail(
      `the head at seq ${proof.head.seq} is signed with key ${proof.head.keyId}, which is neither the given key nor the key named with it`,
    );
  else if (!verifies(key, headMessage(proof.head.seq, proof.head.hash, proof.head.signedAt), proof.head.signature))
    fail(`the head at seq ${proof.head.seq} does not carry a valid signature of key ${proof.head.keyId}`);
  else
    ok(
      `head at seq ${proof.head.seq}, signed ${proof.head.signedAt} with key ${proof.head.keyId}${key === publisherKey ? "" : " (a retired key: confirm it with the publisher)"}`,
    );
}

console.log(failures === 0 ? "RESULT: everything checks out." : `RESULT: ${failures} check(s) failed.`);
process.exit(failures === 0 ? 0 : 1);
