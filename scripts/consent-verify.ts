// npm run consent:verify [-- --seal]
// Checks the consent events' hash chain and its signed head (decision 069); exits 0 when every row
// matches, 1 with the first row that does not. --seal first seals the events still queued (as the
// running server does every second) and signs the head, so the check covers every event.
import { parseArgs } from "node:util";
import { getEnv } from "~/http/env.server";
import { closeDatabase, getDatabase, setDatabaseRole } from "~/db/database.server";
import { sealConsentChain, signConsentChainHead, verifyConsentChain } from "~/services/consent/chain.server";
import { retiredKeysFromEnv, signerFromEnv } from "~/services/consent/signing.server";

let values;
try {
  ({ values } = parseArgs({ options: { seal: { type: "boolean", default: false } } }));
} catch (error) {
  console.error(`${(error as Error).message}\nusage: npm run consent:verify [-- --seal]`);
  process.exit(2);
}
const env = getEnv();
const signer = signerFromEnv(env);
const retiredKeys = retiredKeysFromEnv(env);
setDatabaseRole("command");
const database = await getDatabase().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
let exitCode = 0;
try {
  if (values.seal) {
    const sealed = await sealConsentChain(database.db);
    await signConsentChainHead(database.db, signer);
    console.error(`Sealed ${sealed.toLocaleString("en-US")} queued events.`);
  }
  const result = await verifyConsentChain(database.db, signer, retiredKeys);
  const signedWith = result.headKey ? `, ${result.headKey.status === "current" ? "this server's key" : "a retired key"}` : "";
  const head = result.head ? `signed head at seq ${result.head.seq} (${result.head.signedAt.toISOString()}, key ${result.head.keyId}${signedWith})` : "no signed head yet";
  // The keys the head was checked with, as CONSENT_RETIRED_PUBLIC_KEYS takes them after a rotation.
  const retired = retiredKeys.map((key) => `${key.publicKey} (${key.keyId})`).join(", ");
  const keys = `Public key ${signer.publicKey} (${signer.keyId}); retired keys: ${retired || "none"}`;
  if (result.ok) {
    console.log(
      `OK: ${result.checked.toLocaleString("en-US")} consent events match the chain; ${head}; ${result.pending.toLocaleString("en-US")} queued for sealing; ${(result.elapsedMs / 1000).toFixed(1)} s. ${keys}`,
    );
  } else {
    console.log(`FAILED after ${result.checked.toLocaleString("en-US")} matching rows: ${result.problem!.detail}. ${keys}`);
    exitCode = 1;
  }
} finally {
  await closeDatabase();
}
process.exit(exitCode);
