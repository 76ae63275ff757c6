import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { toNumber } from "~/db/client.server";
import { startJobLoop, type JobLogger, type JobLoop } from "~/services/job-loop.server";
import type { ConsentPublicKey, ConsentSigner } from "./signing.server";

/**
 * The hash chain over consent_events (decision 069).
 *
 * An event is queued for the chain by a trigger in the very statement that inserts it (the
 * opt-in's one statement stays one statement and takes no lock), and a sealing step, serialized
 * across processes by an advisory lock, appends each queued event to consent_chain in the order it
 * takes them: seq 1, 2, 3 …, hash = SHA-256 over the version, seq, the previous hash and the
 * event's canonical content. The chain's order is the sealing order, not the id order: an insert
 * that commits late (a lower id after a higher one) is simply sealed later, and the chain stays
 * linear. The head is signed now and then with a key kept outside the database.
 */

export const GENESIS_HASH = "0".repeat(64);
const CHAIN_LOCK_KEY = 72_410_069; // any constant shared by every process of this app
export const SEAL_BATCH = 1_000;
const VERIFY_BATCH = 5_000;

/**
 * The event's columns the hash covers (version 1), in this order. A column added to consent_events
 * later is not covered until a new version lists it; old rows keep the version they were sealed with
 * (the version is in the hash's prefix, so a row cannot be passed off as another version).
 */
export const CHAIN_V1_COLUMNS = [
  "id",
  "subscriber_id",
  "channel",
  "action",
  "phone_e164",
  "phone_raw",
  "email",
  "first_name",
  "last_name",
  "consent_text",
  "consent_version",
  "consent_text_sha256",
  "terms_text",
  "terms_version",
  "sms_checkbox",
  "terms_checkbox",
  "ip",
  "user_agent",
  "accept_language",
  "page_url",
  "referrer",
  "click_id",
  "source",
  "dnc_policy",
  "dnc_result",
  "dnc_data_date",
  "inbound_message_sid",
  "inbound_body",
  "occurred_at",
] as const;

/** Version 2 also covers what the person did on the form (`interaction`, decision 077). */
export const CHAIN_V2_COLUMNS = [...CHAIN_V1_COLUMNS, "interaction"] as const;

/** Version 3 also covers the page the form was served in (`served_page_sha256`, decision 079). */
export const CHAIN_V3_COLUMNS = [...CHAIN_V2_COLUMNS, "served_page_sha256"] as const;

/** Version 4 also covers when the server sent the form's page (`form_served_at`, decision 080). */
export const CHAIN_V4_COLUMNS = [...CHAIN_V3_COLUMNS, "form_served_at"] as const;

/** The version new chain rows are sealed with. */
export const CHAIN_VERSION = 4;

const COLUMNS_OF: Record<number, readonly string[]> = { 1: CHAIN_V1_COLUMNS, 2: CHAIN_V2_COLUMNS, 3: CHAIN_V3_COLUMNS, 4: CHAIN_V4_COLUMNS };

/**
 * Each column as text the database writes the same way on every server and in every session:
 * ids as digits, the time in UTC to the microsecond (a JavaScript Date would drop the micro-
 * seconds, and an edit of them would pass), the date as YYYY-MM-DD.
 */
function canonicalSelect(alias: string) {
  const column = (name: string) => {
    const ref = `${alias}.${name}`;
    if (name === "id" || name === "subscriber_id") return `${ref}::text AS ${name}`;
    if (name === "occurred_at" || name === "form_served_at") return `to_char(${ref} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS ${name}`;
    if (name === "dnc_data_date") return `to_char(${ref}, 'YYYY-MM-DD') AS dnc_data_date`;
    // jsonb prints in one normal form (keys sorted, one spacing) on every server.
    if (name === "interaction") return `${ref}::text AS interaction`;
    return `${ref} AS ${name}`;
  };
  return sql.raw(CHAIN_V4_COLUMNS.map(column).join(", "));
}

export function canonicalEventJson(row: Record<string, unknown>, version = CHAIN_VERSION) {
  const columns = COLUMNS_OF[version];
  if (!columns) throw new Error(`unknown consent chain version ${version}`);
  return JSON.stringify(Object.fromEntries(columns.map((name) => [name, (row[name] ?? null) as string | boolean | null])));
}

export function chainHash(seq: number, prevHash: string, eventJson: string, version = CHAIN_VERSION) {
  return createHash("sha256").update(`consent-chain-v${version}\n${seq}\n${prevHash}\n${eventJson}`, "utf8").digest("hex");
}

export function headMessage(seq: number, hash: string, signedAt: string) {
  return `consent-chain-head-v1\n${seq}\n${hash}\n${signedAt}`;
}

/**
 * Appends every queued event to the chain, SEAL_BATCH at a time, one transaction a batch; answers
 * how many it sealed. Processes sealing at once wait on the lock and find the queue emptied.
 */
export async function sealConsentChain(db: Db, options: { isStopped?: () => boolean } = {}) {
  const isStopped = options.isStopped ?? (() => false);
  let total = 0;
  while (!isStopped()) {
    const sealed = await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${CHAIN_LOCK_KEY})`);
      const queued = await tx.execute<{ event_id: unknown }>(
        sql`SELECT DISTINCT event_id FROM consent_chain_pending ORDER BY event_id LIMIT ${SEAL_BATCH}`,
      );
      if (queued.rows.length === 0) return 0;
      const ids = queued.rows.map((row) => String(row.event_id));
      const idList = sql.join(
        ids.map((id) => sql`${id}::bigint`),
        sql`, `,
      );
      // An event already chained (a db:import loads the queue and fires the trigger) or gone is not sealed again.
      const events = await tx.execute<Record<string, unknown>>(sql`
        SELECT ${canonicalSelect("e")} FROM consent_events e
        WHERE e.id IN (${idList}) AND NOT EXISTS (SELECT 1 FROM consent_chain c WHERE c.event_id = e.id)
        ORDER BY e.id`);
      const head = await tx.execute<{ seq: unknown; hash: string }>(sql`SELECT seq, hash FROM consent_chain ORDER BY seq DESC LIMIT 1`);
      let seq = head.rows[0] ? toNumber(head.rows[0].seq) : 0;
      let prevHash = head.rows[0]?.hash ?? GENESIS_HASH;
      const rows = events.rows.map((event) => {
        seq += 1;
        const hash = chainHash(seq, prevHash, canonicalEventJson(event));
        const row = sql`(${seq}, ${String(event.id)}::bigint, ${CHAIN_VERSION}, ${prevHash}, ${hash})`;
        prevHash = hash;
        return row;
      });
      if (rows.length > 0) {
        await tx.execute(sql`INSERT INTO consent_chain (seq, event_id, version, prev_hash, hash) VALUES ${sql.join(rows, sql`, `)}`);
      }
      await tx.execute(sql`DELETE FROM consent_chain_pending WHERE event_id IN (${idList})`);
      return ids.length;
    });
    total += sealed;
    if (sealed < SEAL_BATCH) break;
  }
  return total;
}

export type ChainHead = { seq: number; hash: string; keyId: string; publicKey: string; signature: string; signedAt: Date };

export async function latestSignedHead(db: Db): Promise<ChainHead | null> {
  const result = await db.execute<{ seq: unknown; hash: string; key_id: string; public_key: string; signature: string; signed_at: unknown }>(
    sql`SELECT seq, hash, key_id, public_key, signature, signed_at FROM consent_chain_heads ORDER BY id DESC LIMIT 1`,
  );
  const row = result.rows[0];
  if (!row) return null;
  return { seq: toNumber(row.seq), hash: row.hash, keyId: row.key_id, publicKey: row.public_key, signature: row.signature, signedAt: new Date(String(row.signed_at)) };
}

/** The configured key a signed head verified with: this server's current one, or a retired one. */
export type HeadKey = { status: "current" | "retired"; keyId: string; publicKey: string };

/**
 * Which configured key signed `head`, or null when none did. The key is looked up by the id the
 * head names, but the signature is checked with the configured public key, never with the head's
 * own public_key column: whoever can write the database could store a key of their own there.
 */
export function headSigningKey(head: ChainHead, signer: ConsentSigner, retiredKeys: readonly ConsentPublicKey[] = []): HeadKey | null {
  const status = head.keyId === signer.keyId ? "current" : "retired";
  const key = status === "current" ? signer : retiredKeys.find((retired) => retired.keyId === head.keyId);
  if (!key || !key.verify(headMessage(head.seq, head.hash, head.signedAt.toISOString()), head.signature)) return null;
  return { status, keyId: key.keyId, publicKey: key.publicKey };
}

/**
 * Signs the chain's head when it has moved since the last signature and that signature is at
 * least `minIntervalMs` old (or always, with 0). After a rotation, a head signed by a retired key
 * is re-signed at once, moved or not, so the new key covers the chain within a poll; a head by a
 * key this server does not know waits for the interval like any other, so two processes running
 * different keys during a rolling deploy do not re-sign each other's head every poll. Answers the
 * new head, or null when none was due. Decided under the chain's lock: one process signs.
 */
export async function signConsentChainHead(
  db: Db,
  signer: ConsentSigner,
  options: { minIntervalMs?: number; now?: Date; retiredKeys?: readonly ConsentPublicKey[] } = {},
) {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${CHAIN_LOCK_KEY})`);
    const head = await tx.execute<{ seq: unknown; hash: string }>(sql`SELECT seq, hash FROM consent_chain ORDER BY seq DESC LIMIT 1`);
    if (!head.rows[0]) return null;
    const seq = toNumber(head.rows[0].seq);
    const last = await latestSignedHead(tx as unknown as Db);
    const now = options.now ?? new Date();
    // Checked, not read off the row's key id: a head inserted under this key's id must not pass for one already signed.
    const lastKey = last ? headSigningKey(last, signer, options.retiredKeys) : null;
    if (last && last.seq === seq && lastKey?.status === "current") return null;
    if (last && lastKey?.status !== "retired" && now.getTime() - last.signedAt.getTime() < (options.minIntervalMs ?? 0)) return null;
    const signedAt = now.toISOString();
    const signature = signer.sign(headMessage(seq, head.rows[0].hash, signedAt));
    await tx.execute(sql`
      INSERT INTO consent_chain_heads (seq, hash, key_id, public_key, signature, signed_at)
      VALUES (${seq}, ${head.rows[0].hash}, ${signer.keyId}, ${signer.publicKey}, ${signature}, ${signedAt})`);
    return { seq, hash: head.rows[0].hash, keyId: signer.keyId, publicKey: signer.publicKey, signature, signedAt: new Date(signedAt) } satisfies ChainHead;
  });
}

export type ChainProblem = {
  /** The chain row (seq) and consent event (id) where the chain first fails to match. */
  seq: number | null;
  eventId: number | null;
  kind: "edited" | "deleted" | "missing_link" | "reordered" | "unsealed" | "head_signature" | "head_mismatch";
  detail: string;
};

export type ChainVerification = {
  ok: boolean;
  /** Chain rows checked. */
  checked: number;
  /** Events queued and not yet sealed (normal for a second or so after an insert). */
  pending: number;
  head: ChainHead | null;
  /** The newest signed head checked out with this server's public key or a retired one. */
  headSigned: boolean;
  /** The configured key that signed the newest head, when one did. */
  headKey: HeadKey | null;
  problem: ChainProblem | null;
  elapsedMs: number;
};

/**
 * Walks the chain from seq 1, recomputing each hash from the event as it is now, and answers the
 * first row that does not match: an edited event (its hash differs), a deleted one (its chain row
 * remains), a removed chain row (a gap in seq), rows put in another order (a row's previous hash
 * is not the hash before it). Then checks the newest signed head against the chain with a
 * configured public key, the current one or a retired one (an attacker who rewrites the whole
 * chain cannot sign its new head), and that every event is in the chain or the queue.
 */
export async function verifyConsentChain(db: Db, signer: ConsentSigner, retiredKeys: readonly ConsentPublicKey[] = []): Promise<ChainVerification> {
  const started = Date.now();
  let checked = 0;
  let expectedSeq = 1;
  let prevHash = GENESIS_HASH;
  let problem: ChainProblem | null = null;
  const hashes = new Map<number, string>();
  const head = await latestSignedHead(db);

  while (!problem) {
    const batch = await db.execute<Record<string, unknown> & { c_seq: unknown; c_event_id: unknown; c_prev_hash: string; c_hash: string; id: unknown }>(sql`
      SELECT c.seq AS c_seq, c.event_id AS c_event_id, c.version AS c_version, c.prev_hash AS c_prev_hash, c.hash AS c_hash, ${canonicalSelect("e")}
      FROM consent_chain c LEFT JOIN consent_events e ON e.id = c.event_id
      WHERE c.seq >= ${expectedSeq} ORDER BY c.seq LIMIT ${VERIFY_BATCH}`);
    if (batch.rows.length === 0) break;
    for (const row of batch.rows) {
      const seq = toNumber(row.c_seq);
      const eventId = toNumber(row.c_event_id);
      if (seq !== expectedSeq) {
        problem = { seq, eventId, kind: "missing_link", detail: `chain rows ${expectedSeq}${seq - 1 > expectedSeq ? `–${seq - 1}` : ""} are missing before seq ${seq} (event ${eventId})` };
        break;
      }
      if (row.id === null || row.id === undefined) {
        problem = { seq, eventId, kind: "deleted", detail: `consent event ${eventId} (seq ${seq}) is missing: the row was deleted` };
        break;
      }
      if (row.c_prev_hash !== prevHash) {
        problem = { seq, eventId, kind: "reordered", detail: `consent event ${eventId} (seq ${seq}) does not follow the row before it: the chain was re-ordered or rewritten` };
        break;
      }
      const version = toNumber(row.c_version);
      const hash = COLUMNS_OF[version] ? chainHash(seq, prevHash, canonicalEventJson(row, version), version) : null;
      if (hash !== row.c_hash) {
        problem = { seq, eventId, kind: "edited", detail: `consent event ${eventId} (seq ${seq}) does not match its hash: the row was changed after it was recorded` };
        break;
      }
      if (head && seq === head.seq) hashes.set(seq, hash);
      prevHash = hash;
      expectedSeq = seq + 1;
      checked++;
    }
  }

  let headKey: HeadKey | null = null;
  if (!problem && head) {
    headKey = headSigningKey(head, signer, retiredKeys);
    if (!headKey) {
      problem = { seq: head.seq, eventId: null, kind: "head_signature", detail: headSignatureProblem(head, signer, retiredKeys) };
    } else if (hashes.get(head.seq) !== head.hash) {
      problem = { seq: head.seq, eventId: null, kind: "head_mismatch", detail: `the chain at seq ${head.seq} is not the one signed on ${head.signedAt.toISOString()}: it was rewritten` };
    }
  }

  if (!problem) {
    // An event in neither the chain nor the queue was inserted past the trigger.
    const stray = await db.execute<{ id: unknown }>(sql`
      SELECT e.id FROM consent_events e
      WHERE NOT EXISTS (SELECT 1 FROM consent_chain c WHERE c.event_id = e.id)
        AND NOT EXISTS (SELECT 1 FROM consent_chain_pending p WHERE p.event_id = e.id)
      ORDER BY e.id LIMIT 1`);
    if (stray.rows[0]) {
      const eventId = toNumber(stray.rows[0].id);
      problem = { seq: null, eventId, kind: "unsealed", detail: `consent event ${eventId} is in neither the chain nor its queue: it was inserted around the trigger` };
    }
  }
  const pending = await db.execute<{ n: unknown }>(sql`SELECT count(DISTINCT event_id) AS n FROM consent_chain_pending`);
  return { ok: !problem, checked, pending: toNumber(pending.rows[0]?.n), head, headSigned: headKey !== null, headKey, problem, elapsedMs: Date.now() - started };
}

/** Why no configured key verifies `head`: its key is unknown here, or the signature is not that key's. */
function headSignatureProblem(head: ChainHead, signer: ConsentSigner, retiredKeys: readonly ConsentPublicKey[]) {
  const at = `the signed head at seq ${head.seq}`;
  if (head.keyId === signer.keyId) return `${at} does not carry a valid signature of this server's key (${signer.keyId})`;
  if (retiredKeys.some((retired) => retired.keyId === head.keyId)) return `${at} does not carry a valid signature of the retired key ${head.keyId}`;
  return `${at} was signed with key ${head.keyId}, which is neither this server's key (${signer.keyId}) nor a retired one (CONSENT_RETIRED_PUBLIC_KEYS)`;
}

/**
 * Seals queued events every `pollMs` on every process (the lock takes turns) and signs the head
 * when due: every `signEveryMs` when it moved, and at the first poll after a rotation (a head
 * signed by one of `retiredKeys`).
 */
export function startConsentChain(options: {
  db: Db;
  signer: ConsentSigner;
  retiredKeys?: readonly ConsentPublicKey[];
  logger: JobLogger;
  pollMs?: number;
  signEveryMs: number;
  autoStart?: boolean;
}): JobLoop {
  const { db, signer, retiredKeys, logger } = options;
  return startJobLoop({
    name: "consent-chain",
    logger,
    pollMs: options.pollMs ?? 1000,
    autoStart: options.autoStart,
    drain: async (isStopped) => {
      const sealed = await sealConsentChain(db, { isStopped });
      const head = await signConsentChainHead(db, signer, { minIntervalMs: options.signEveryMs, retiredKeys });
      if (head) logger.info({ job: "consent-chain", seq: head.seq, keyId: head.keyId }, "signed the consent chain's head");
      return sealed;
    },
  });
}
