// npm run consent:verify [-- --seal] [-- --expect SEQ:HASH] [-- --acknowledge "what happened" --actor NAME]
// Checks the consent events' hash chain, every signed head, the witness file and the kept form
// pages (decisions 069, 081); exits 0 when all match, 1 with the first fault. --seal first seals the
// events still queued (as the running server does every second) and signs the head. --expect checks
// that the chain holds a head mailed to the compliance address (the mail prints the option).
// --acknowledge records in the witness that the heads the chain no longer holds are known lost, and
// lets signing resume from the chain as it is.
import { parseArgs } from "node:util";
import { userInfo } from "node:os";
import { getEnv } from "~/http/env.server";
import { closeDatabase, getDatabase, setDatabaseRole } from "~/db/database.server";
import {
  acknowledgeChainBreak,
  chainHashAtSeq,
  sealConsentChain,
  signConsentChainHead,
  verifyConsentChain,
} from "~/services/consent/chain.server";
import { retiredKeysFromEnv, signerFromEnv } from "~/services/consent/signing.server";
import { witnessFromEnv } from "~/services/consent/witness.server";

const usage =
  'usage: npm run consent:verify [-- --seal] [-- --expect SEQ:HASH] [-- --acknowledge "what happened" [--actor NAME]]';
let values;
try {
  ({ values } = parseArgs({
    options: {
      seal: { type: "boolean", default: false },
      expect: { type: "string" },
      acknowledge: { type: "string" },
      actor: { type: "string" },
    },
  }));
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
const expected = values.expect ? /^([0-9]{1,15}):([0-9a-f]{64})$/.exec(values.expect) : null;
if (values.expect && !expected) {
  console.error(
    `--expect takes the sequence number and the head hash as the mail prints them, e.g. 1234:${"ab".repeat(32)}\n${usage}`,
  );
  process.exit(2);
}
const env = getEnv();
const signer = signerFromEnv(env);
const retiredKeys = retiredKeysFromEnv(env);
const witness = witnessFromEnv(env);
setDatabaseRole("command");
const database = await getDatabase().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
let exitCode = 0;
try {
  const { db } = database;
  if (values.seal) {
    const sealed = await sealConsentChain(db);
    await signConsentChainHead(db, signer, { retiredKeys, witness });
    console.error(`Sealed ${sealed.toLocaleString("en-US")} queued events.`);
  }
  if (values.acknowledge !== undefined) {
    const actor = values.actor ?? `${userInfo().username} (command line)`;
    const result = await acknowledgeChainBreak(db, signer, retiredKeys, witness, { actor, reason: values.acknowledge });
    if (!result.ok) {
      console.log(`NOT ACKNOWLEDGED: ${result.reason}`);
      exitCode = 1;
    } else {
      const ack = result.acknowledgement;
      console.log(
        `Acknowledged in ${witness.path} by ${actor}: heads signed before ${ack.at} that the chain no longer holds are reported as this break; signing resumes from seq ${ack.resume.seq}.`,
      );
    }
  }
  if (expected) {
    const seq = Number(expected[1]);
    const there = await chainHashAtSeq(db, seq);
    if (there === expected[2]) console.log(`The chain at seq ${seq} still has the hash ${expected[2]}.`);
    else {
      console.log(
        `FAILED: the chain at seq ${seq} ${there ? `has the hash ${there}, not ${expected[2]}` : "no longer exists"}.`,
      );
      exitCode = 1;
    }
  }
  const result = await verifyConsentChain(db, signer, retiredKeys, witness);
  const signedWith = result.headKey
    ? `, ${result.headKey.status === "current" ? "this server's key" : "a retired key"}`
    : "";
  const head = result.head
    ? `signed head at seq ${result.head.seq} (${result.head.signedAt.toISOString()}, key ${result.head.keyId}${signedWith})`
    : "no signed head yet";
  // The keys the head was checked with, as CONSENT_RETIRED_PUBLIC_KEYS takes them after a rotation.
  const retired = retiredKeys.map((key) => `${key.publicKey} (${key.keyId})`).join(", ");
  const keys = `Public key ${signer.publicKey} (${signer.keyId}); retired keys: ${retired || "none"}`;
  const last = result.witness?.lastMatching;
  const witnessed = `witness ${witness.path}: ${result.heads.witnessed.toLocaleString("en-US")} heads${last ? `, newest held by the chain at seq ${last.seq} (${last.signedAt})` : ""}${result.witness?.unreadableLines ? `, ${result.witness.unreadableLines} unreadable lines` : ""}`;
  for (const ack of result.acknowledged) {
    console.log(
      `Acknowledged break, ${ack.at} by ${ack.actor}: ${ack.reason} (newest lost head ${ack.broken ? `seq ${ack.broken.seq}` : "unknown"}; resumed from seq ${ack.resume.seq}).`,
    );
  }
  if (result.ok) {
    console.log(
      `OK: ${result.checked.toLocaleString("en-US")} consent events match the chain; ${result.heads.database.toLocaleString("en-US")} signed heads in the database, each held by the chain; ${head}; ${witnessed}; ${result.pagesChecked.toLocaleString("en-US")} kept form pages match their SHA-256; ${result.pending.toLocaleString("en-US")} queued for sealing; ${(result.elapsedMs / 1000).toFixed(1)} s. ${keys}`,
    );
  } else {
    console.log(
      `FAILED after ${result.checked.toLocaleString("en-US")} matching rows: ${result.problem!.detail}. ${witnessed}. ${keys}`,
    );
    exitCode = 1;
  }
} finally {
  await closeDatabase();
}
process.exit(exitCode);
