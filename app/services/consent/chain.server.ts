import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { toNumber } from "~/db/client.server";
import { auditLog } from "~/db/schema";
import { startJobLoop, type JobLogger, type JobLoop } from "~/services/job-loop.server";
import { headMessage } from "./chain-messages";
import { verifyServedPages } from "./served-page.server";
import type { ConsentPublicKey, ConsentSigner } from "./signing.server";
import { mailChainBroken, mailDailyHead, type WitnessMail } from "./witness-mail.server";
import {
  acknowledgementMessage,
  type ConsentWitness,
  type WitnessAcknowledgement,
  type WitnessedHead,
  type WitnessEntry,
} from "./witness.server";

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

/**
 * Version 5 covers the same columns, but hashes the event's SHA-256 instead of its text (decision
 * 081): a certificate can then carry the links from a person's event to the signed head as other
 * events' digests, which reveal nothing about those people, and an examiner recomputes every link.
 */
export const CHAIN_V5_COLUMNS = CHAIN_V4_COLUMNS;

/** The version new chain rows are sealed with. */
export const CHAIN_VERSION = 5;

const COLUMNS_OF: Record<number, readonly string[]> = {
  1: CHAIN_V1_COLUMNS,
  2: CHAIN_V2_COLUMNS,
  3: CHAIN_V3_COLUMNS,
  4: CHAIN_V4_COLUMNS,
  5: CHAIN_V5_COLUMNS,
};

/**
 * Each column as text the database writes the same way on every server and in every session:
 * ids as digits, the time in UTC to the microsecond (a JavaScript Date would drop the micro-
 * seconds, and an edit of them would pass), the date as YYYY-MM-DD.
 */
function canonicalSelect(alias: string) {
  const column = (name: string) => {
    const ref = `${alias}.${name}`;
    if (name === "id" || name === "subscriber_id") return `${ref}::text AS ${name}`;
    if (name === "occurred_at" || name === "form_served_at")
      return `to_char(${ref} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS ${name}`;
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
  return JSON.stringify(
    Object.fromEntries(columns.map((name) => [name, (row[name] ?? null) as string | boolean | null])),
  );
}

/**
 * The events' canonical JSON as a chain row of `version` hashes it, by id: what a certificate
 * carries so an examiner can recompute each hash (decision 081), and what a forger recomputes.
 */
export async function canonicalEventJsonOf(db: Db, eventIds: readonly number[], version = CHAIN_VERSION) {
  if (eventIds.length === 0) return new Map<number, string>();
  const ids = sql.join(
    eventIds.map((id) => sql`${id}::bigint`),
    sql`, `,
  );
  const rows = await db.execute<Record<string, unknown>>(
    sql`SELECT ${canonicalSelect("e")} FROM consent_events e WHERE e.id IN (${ids})`,
  );
  return new Map(rows.rows.map((row) => [toNumber(row.id), canonicalEventJson(row, version)]));
}

/** SHA-256 of an event's canonical JSON: what a version 5 link hashes in its place. */
export function eventDigest(eventJson: string) {
  return createHash("sha256").update(eventJson, "utf8").digest("hex");
}

export function chainHash(seq: number, prevHash: string, eventJson: string, version = CHAIN_VERSION) {
  return linkHash(seq, prevHash, version >= 5 ? eventDigest(eventJson) : eventJson, version);
}

/** A link's hash from what it covers: the event's JSON (versions 1-4) or its digest (version 5 on). */
export function linkHash(seq: number, prevHash: string, covered: string, version: number) {
  return createHash("sha256")
    .update(`consent-chain-v${version}\n${seq}\n${prevHash}\n${covered}`, "utf8")
    .digest("hex");
}

export { headMessage };

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
      const head = await tx.execute<{ seq: unknown; hash: string }>(
        sql`SELECT seq, hash FROM consent_chain ORDER BY seq DESC LIMIT 1`,
      );
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
        await tx.execute(
          sql`INSERT INTO consent_chain (seq, event_id, version, prev_hash, hash) VALUES ${sql.join(rows, sql`, `)}`,
        );
      }
      await tx.execute(sql`DELETE FROM consent_chain_pending WHERE event_id IN (${idList})`);
      return ids.length;
    });
    total += sealed;
    if (sealed < SEAL_BATCH) break;
  }
  return total;
}

export type ChainHead = {
  seq: number;
  hash: string;
  keyId: string;
  publicKey: string;
  signature: string;
  signedAt: Date;
};

type HeadRow = {
  id: unknown;
  seq: unknown;
  hash: string;
  key_id: string;
  public_key: string;
  signature: string;
  signed_at: unknown;
};

function headOf(row: HeadRow): ChainHead {
  return {
    seq: toNumber(row.seq),
    hash: row.hash,
    keyId: row.key_id,
    publicKey: row.public_key,
    signature: row.signature,
    signedAt: new Date(String(row.signed_at)),
  };
}

export async function latestSignedHead(db: Db): Promise<ChainHead | null> {
  const result = await db.execute<HeadRow>(
    sql`SELECT id, seq, hash, key_id, public_key, signature, signed_at FROM consent_chain_heads ORDER BY id DESC LIMIT 1`,
  );
  return result.rows[0] ? headOf(result.rows[0]) : null;
}

/** The configured key a signed head verified with: this server's current one, or a retired one. */
export type HeadKey = { status: "current" | "retired"; keyId: string; publicKey: string };

function configuredKey(keyId: string, signer: ConsentSigner, retiredKeys: readonly ConsentPublicKey[]) {
  return keyId === signer.keyId ? signer : retiredKeys.find((retired) => retired.keyId === keyId);
}

/**
 * Which configured key signed `head`, or null when none did. The key is looked up by the id the
 * head names, but the signature is checked with the configured public key, never with the head's
 * own public_key column: whoever can write the database could store a key of their own there.
 */
export function headSigningKey(
  head: ChainHead,
  signer: ConsentSigner,
  retiredKeys: readonly ConsentPublicKey[] = [],
): HeadKey | null {
  const key = configuredKey(head.keyId, signer, retiredKeys);
  if (!key || !key.verify(headMessage(head.seq, head.hash, head.signedAt.toISOString()), head.signature)) return null;
  return { status: head.keyId === signer.keyId ? "current" : "retired", keyId: key.keyId, publicKey: key.publicKey };
}

function witnessedHeadVerifies(entry: WitnessedHead, signer: ConsentSigner, retiredKeys: readonly ConsentPublicKey[]) {
  return (
    configuredKey(entry.keyId, signer, retiredKeys)?.verify(
      headMessage(entry.seq, entry.hash, entry.signedAt),
      entry.signature,
    ) ?? false
  );
}

function acknowledgementVerifies(
  entry: WitnessAcknowledgement,
  signer: ConsentSigner,
  retiredKeys: readonly ConsentPublicKey[],
) {
  return (
    configuredKey(entry.keyId, signer, retiredKeys)?.verify(acknowledgementMessage(entry), entry.signature) ?? false
  );
}

/** A point of the chain the signer trusts: a head it can check the signature of, or where an acknowledged break resumed. */
export type TrustedPoint = {
  seq: number;
  hash: string;
  signedAt: string;
  source: "witness" | "acknowledged" | "database";
};

/** The newest point the witness vouches for: its last signed head, or the resumption of an acknowledged break after it. */
export function lastWitnessedPoint(
  entries: readonly WitnessEntry[],
  signer: ConsentSigner,
  retiredKeys: readonly ConsentPublicKey[] = [],
): TrustedPoint | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.kind === "head" && witnessedHeadVerifies(entry, signer, retiredKeys))
      return { seq: entry.seq, hash: entry.hash, signedAt: entry.signedAt, source: "witness" };
    if (entry.kind === "acknowledged" && acknowledgementVerifies(entry, signer, retiredKeys)) {
      return { seq: entry.resume.seq, hash: entry.resume.hash, signedAt: entry.at, source: "acknowledged" };
    }
  }
  return null;
}

/** The chain no longer holds a head the signer trusts: it refuses to sign over it (decision 081). */
export class ConsentChainBrokenError extends Error {
  override name = "ConsentChainBrokenError";
  constructor(readonly problem: ChainProblem) {
    super(problem.detail);
  }
}

function pointName(point: TrustedPoint) {
  const where =
    point.source === "witness"
      ? "witnessed head"
      : point.source === "acknowledged"
        ? "point an acknowledged break resumed from"
        : "signed head";
  return `the ${where} at seq ${point.seq} (${point.signedAt})`;
}

function pointProblem(point: TrustedPoint, chainHashThere: string | null, top: number): ChainProblem {
  const kind = point.source === "database" ? "head_mismatch" : "witness_mismatch";
  const detail =
    chainHashThere === null
      ? `${pointName(point)} is no longer in the chain, which now ends at seq ${top}: events after it were deleted`
      : `the chain at seq ${point.seq} is not ${pointName(point)}: it was rewritten`;
  return { seq: point.seq, eventId: null, kind, detail };
}

async function chainTop(db: Db) {
  const head = await db.execute<{ seq: unknown; hash: string }>(
    sql`SELECT seq, hash FROM consent_chain ORDER BY seq DESC LIMIT 1`,
  );
  return head.rows[0] ? { seq: toNumber(head.rows[0].seq), hash: head.rows[0].hash } : null;
}

/**
 * Whether the chain still holds every point the signer trusts: the witness's last one, and every
 * head in the database signed after it whose signature checks out (another process's). With
 * `walk`, also that every row after the oldest of them links to it and matches its event, so
 * what is signed next extends them. Answers the heads not yet in the witness, to append.
 */
async function checkExtension(
  db: Db,
  signer: ConsentSigner,
  retiredKeys: readonly ConsentPublicKey[],
  witness: ConsentWitness | undefined,
  options: { walk: boolean },
): Promise<{ problem: ChainProblem | null; unwitnessed: ChainHead[] }> {
  const top = await chainTop(db);
  const witnessed = witness ? lastWitnessedPoint(witness.tail(), signer, retiredKeys) : null;
  const rows = await db.execute<HeadRow & { chain_hash: string | null }>(sql`
    SELECT h.id, h.seq, h.hash, h.key_id, h.public_key, h.signature, h.signed_at, c.hash AS chain_hash
    FROM consent_chain_heads h LEFT JOIN consent_chain c ON c.seq = h.seq
    WHERE h.signed_at > ${witnessed?.signedAt ?? "1970-01-01T00:00:00Z"}::timestamptz ORDER BY h.id`);
  // Heads nobody here can check are the check's to report, not the signer's to trust.
  const newer = rows.rows
    .map((row) => ({ head: headOf(row), chainHash: row.chain_hash }))
    .filter(({ head }) => headSigningKey(head, signer, retiredKeys));
  const points: { point: TrustedPoint; chainHash: string | null }[] = newer.map(({ head, chainHash: there }) => ({
    point: { seq: head.seq, hash: head.hash, signedAt: head.signedAt.toISOString(), source: "database" },
    chainHash: there,
  }));
  if (witnessed) points.unshift({ point: witnessed, chainHash: await chainHashAt(db, witnessed.seq) });
  for (const { point, chainHash: there } of points) {
    if (there !== point.hash) return { problem: pointProblem(point, there, top?.seq ?? 0), unwitnessed: [] };
  }
  if (options.walk && points.length > 0) {
    const oldest = points.reduce((a, b) => (b.point.seq < a.point.seq ? b : a)).point;
    const walked = await walkChain(db, { seq: oldest.seq + 1, prevHash: oldest.hash });
    if (walked.problem) return { problem: walked.problem, unwitnessed: [] };
  }
  return { problem: null, unwitnessed: witness ? newer.map(({ head }) => head) : [] };
}

/** The hash of the chain row at `seq`, or null when there is none (a head mailed to the compliance address, checked by the command). */
export async function chainHashAtSeq(db: Db, seq: number) {
  return chainHashAt(db, seq);
}

async function chainHashAt(db: Db, seq: number) {
  const row = await db.execute<{ hash: string }>(sql`SELECT hash FROM consent_chain WHERE seq = ${seq}`);
  return row.rows[0]?.hash ?? null;
}

function witnessEntryOf(head: ChainHead): WitnessedHead {
  return {
    kind: "head",
    seq: head.seq,
    hash: head.hash,
    keyId: head.keyId,
    signature: head.signature,
    signedAt: head.signedAt.toISOString(),
  };
}

/**
 * Signs the chain's head when it has moved since the last signature and that signature is at
 * least `minIntervalMs` old (or always, with 0). After a rotation, a head signed by a retired key
 * is re-signed at once, moved or not, so the new key covers the chain within a poll; a head by a
 * key this server does not know waits for the interval like any other, so two processes running
 * different keys during a rolling deploy do not re-sign each other's head every poll. Answers the
 * new head, or null when none was due. Decided under the chain's lock: one process signs.
 *
 * A new head only ever extends the ones before it (decision 081): the witness's last head and every
 * head signed since must still be in the chain, and the rows after them must link up and match their
 * events; otherwise it throws ConsentChainBrokenError and signs nothing. Every head it signs, and
 * every head another process signed that the witness lacks, is appended to `witness`.
 */
export async function signConsentChainHead(
  db: Db,
  signer: ConsentSigner,
  options: {
    minIntervalMs?: number;
    now?: Date;
    retiredKeys?: readonly ConsentPublicKey[];
    witness?: ConsentWitness;
  } = {},
) {
  const retiredKeys = options.retiredKeys ?? [];
  const { witness } = options;
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${CHAIN_LOCK_KEY})`);
    const trx = tx as unknown as Db;
    const checked = await checkExtension(trx, signer, retiredKeys, witness, { walk: false });
    if (checked.problem) throw new ConsentChainBrokenError(checked.problem);
    for (const head of checked.unwitnessed) witness!.append(witnessEntryOf(head));
    const top = await chainTop(trx);
    if (!top) return null;
    const last = await latestSignedHead(trx);
    const now = options.now ?? new Date();
    // Checked, not read off the row's key id: a head inserted under this key's id must not pass for one already signed.
    const lastKey = last ? headSigningKey(last, signer, retiredKeys) : null;
    if (last && last.seq === top.seq && lastKey?.status === "current") return null;
    if (last && lastKey?.status !== "retired" && now.getTime() - last.signedAt.getTime() < (options.minIntervalMs ?? 0))
      return null;
    const walked = await checkExtension(trx, signer, retiredKeys, witness, { walk: true });
    if (walked.problem) throw new ConsentChainBrokenError(walked.problem);
    const signedAt = now.toISOString();
    const signature = signer.sign(headMessage(top.seq, top.hash, signedAt));
    await tx.execute(sql`
      INSERT INTO consent_chain_heads (seq, hash, key_id, public_key, signature, signed_at)
      VALUES (${top.seq}, ${top.hash}, ${signer.keyId}, ${signer.publicKey}, ${signature}, ${signedAt})`);
    const head = {
      seq: top.seq,
      hash: top.hash,
      keyId: signer.keyId,
      publicKey: signer.publicKey,
      signature,
      signedAt: new Date(signedAt),
    } satisfies ChainHead;
    // Before the commit: a head the witness lacks is never one the database has (a failed commit leaves a witnessed head the chain still holds).
    witness?.append(witnessEntryOf(head));
    return head;
  });
}

export type ChainProblem = {
  /** The chain row (seq) and consent event (id) where the chain first fails to match. */
  seq: number | null;
  eventId: number | null;
  kind:
    | "edited"
    | "deleted"
    | "missing_link"
    | "reordered"
    | "unsealed"
    | "head_signature"
    | "head_mismatch"
    | "witness_mismatch"
    | "witness_signature"
    | "page_altered";
  detail: string;
};

/** A break an operator acknowledged (npm run consent:verify -- --acknowledge): reported, no longer failing. */
export type AcknowledgedBreak = {
  at: string;
  actor: string;
  reason: string;
  broken: { seq: number; hash: string } | null;
  resume: { seq: number; hash: string };
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
  /** Signed heads checked against the chain: in the database, and in the witness file. */
  heads: { database: number; witnessed: number };
  /** The witness file read, and its newest head the chain still holds. */
  witness: { path: string; lastMatching: { seq: number; signedAt: string } | null; unreadableLines: number } | null;
  acknowledged: AcknowledgedBreak[];
  /** Kept form pages checked against the SHA-256 they are filed under. */
  pagesChecked: number;
  problem: ChainProblem | null;
  elapsedMs: number;
};

/**
 * Walks chain rows from `start` (seq and the hash the row before it has), recomputing each hash
 * from the event as it is now, and answers the first row that does not match: an edited event
 * (its hash differs), a deleted one (its chain row remains), a removed chain row (a gap in seq),
 * rows put in another order (a row's previous hash is not the hash before it).
 */
async function walkChain(
  db: Db,
  start: { seq: number; prevHash: string },
  visit?: (seq: number, hash: string) => void,
) {
  let checked = 0;
  let expectedSeq = start.seq;
  let prevHash = start.prevHash;
  let problem: ChainProblem | null = null;
  while (!problem) {
    const batch = await db.execute<
      Record<string, unknown> & {
        c_seq: unknown;
        c_event_id: unknown;
        c_prev_hash: string;
        c_hash: string;
        id: unknown;
      }
    >(sql`
      SELECT c.seq AS c_seq, c.event_id AS c_event_id, c.version AS c_version, c.prev_hash AS c_prev_hash, c.hash AS c_hash, ${canonicalSelect("e")}
      FROM consent_chain c LEFT JOIN consent_events e ON e.id = c.event_id
      WHERE c.seq >= ${expectedSeq} ORDER BY c.seq LIMIT ${VERIFY_BATCH}`);
    if (batch.rows.length === 0) break;
    for (const row of batch.rows) {
      const seq = toNumber(row.c_seq);
      const eventId = toNumber(row.c_event_id);
      if (seq !== expectedSeq) {
        problem = {
          seq,
          eventId,
          kind: "missing_link",
          detail: `chain rows ${expectedSeq}${seq - 1 > expectedSeq ? `–${seq - 1}` : ""} are missing before seq ${seq} (event ${eventId})`,
        };
        break;
      }
      if (row.id === null || row.id === undefined) {
        problem = {
          seq,
          eventId,
          kind: "deleted",
          detail: `consent event ${eventId} (seq ${seq}) is missing: the row was deleted`,
        };
        break;
      }
      if (row.c_prev_hash !== prevHash) {
        problem = {
          seq,
          eventId,
          kind: "reordered",
          detail: `consent event ${eventId} (seq ${seq}) does not follow the row before it: the chain was re-ordered or rewritten`,
        };
        break;
      }
      const version = toNumber(row.c_version);
      const hash = COLUMNS_OF[version] ? chainHash(seq, prevHash, canonicalEventJson(row, version), version) : null;
      if (hash !== row.c_hash) {
        problem = {
          seq,
          eventId,
          kind: "edited",
          detail: `consent event ${eventId} (seq ${seq}) does not match its hash: the row was changed after it was recorded`,
        };
        break;
      }
      visit?.(seq, hash);
      prevHash = hash;
      expectedSeq = seq + 1;
      checked++;
    }
  }
  return { checked, problem };
}

/**
 * Walks the chain from seq 1 (walkChain), then checks every signed head: in the database, each
 * with a configured key (the current one or a retired one; an attacker who rewrites the whole chain
 * cannot sign its new head) and each still in the chain, so every later head extends every earlier
 * one; and in the witness file, which the database's holder cannot reach, naming the newest
 * witnessed head the chain no longer holds. Heads signed before an acknowledged break are reported
 * with it instead. Then every kept form page against its SHA-256, and that every event is in the
 * chain or the queue.
 */
export async function verifyConsentChain(
  db: Db,
  signer: ConsentSigner,
  retiredKeys: readonly ConsentPublicKey[] = [],
  witness?: ConsentWitness,
): Promise<ChainVerification> {
  const started = Date.now();
  const headRows = await db.execute<HeadRow>(
    sql`SELECT id, seq, hash, key_id, public_key, signature, signed_at FROM consent_chain_heads ORDER BY id`,
  );
  const heads = headRows.rows.map(headOf);
  const head = heads.at(-1) ?? null;
  const read = witness ? await witness.readAll() : { entries: [], unreadable: 0 };
  const witnessedHeads = read.entries.filter((entry): entry is WitnessedHead => entry.kind === "head");
  const acknowledgements = read.entries.filter(
    (entry): entry is WitnessAcknowledgement =>
      entry.kind === "acknowledged" && acknowledgementVerifies(entry, signer, retiredKeys),
  );
  const wanted = new Set<number>([
    ...heads.map((h) => h.seq),
    ...witnessedHeads.map((h) => h.seq),
    ...acknowledgements.map((a) => a.resume.seq),
  ]);
  const hashes = new Map<number, string>();
  const walked = await walkChain(db, { seq: 1, prevHash: GENESIS_HASH }, (seq, hash) => {
    if (wanted.has(seq)) hashes.set(seq, hash);
  });
  let problem = walked.problem;
  const top = walked.checked;
  // A head signed before an acknowledged break (and at or before the head it named) is the acknowledgement's to report.
  const acknowledged = (signedAt: string) => acknowledgements.some((ack) => signedAt <= ack.at);

  let headKey: HeadKey | null = null;
  if (!problem) {
    for (const candidate of heads) {
      const key = headSigningKey(candidate, signer, retiredKeys);
      const signedAt = candidate.signedAt.toISOString();
      if (candidate === head) headKey = key;
      if (acknowledged(signedAt)) continue;
      if (!key) {
        problem = {
          seq: candidate.seq,
          eventId: null,
          kind: "head_signature",
          detail: headSignatureProblem(candidate, signer, retiredKeys),
        };
        break;
      }
      if (hashes.get(candidate.seq) !== candidate.hash) {
        problem = pointProblem(
          { seq: candidate.seq, hash: candidate.hash, signedAt, source: "database" },
          hashes.get(candidate.seq) ?? null,
          top,
        );
        break;
      }
    }
  }

  let lastMatching: { seq: number; signedAt: string } | null = null;
  if (!problem && witness) {
    let lastMismatch: WitnessedHead | null = null;
    for (const entry of witnessedHeads) {
      if (acknowledged(entry.signedAt)) continue;
      if (!witnessedHeadVerifies(entry, signer, retiredKeys)) {
        problem = {
          seq: entry.seq,
          eventId: null,
          kind: "witness_signature",
          detail: `the witnessed head at seq ${entry.seq} (${entry.signedAt}) in ${witness.path} is not signed by this server's key or a retired one (key ${entry.keyId})`,
        };
        break;
      }
      if (hashes.get(entry.seq) === entry.hash) {
        if (!lastMismatch) lastMatching = { seq: entry.seq, signedAt: entry.signedAt };
      } else {
        lastMismatch = entry;
      }
    }
    if (!problem && lastMismatch) {
      const point = {
        seq: lastMismatch.seq,
        hash: lastMismatch.hash,
        signedAt: lastMismatch.signedAt,
        source: "witness",
      } as const;
      const lastGood = lastMatching
        ? ` The last witnessed head the chain still holds is seq ${lastMatching.seq} (${lastMatching.signedAt}).`
        : " No witnessed head before it still matches.";
      problem = {
        ...pointProblem(point, hashes.get(point.seq) ?? null, top),
        detail: `${pointProblem(point, hashes.get(point.seq) ?? null, top).detail}.${lastGood}`,
      };
    }
  }

  let pagesChecked = 0;
  if (!problem) {
    const pages = await verifyServedPages(db);
    pagesChecked = pages.checked;
    if (pages.altered) {
      problem = {
        seq: null,
        eventId: pages.altered.eventId,
        kind: "page_altered",
        detail: `the kept form page ${pages.altered.sha256} (consent event ${pages.altered.eventId ?? "none"}) no longer has the SHA-256 it is filed under: its bytes were changed`,
      };
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
      problem = {
        seq: null,
        eventId,
        kind: "unsealed",
        detail: `consent event ${eventId} is in neither the chain nor its queue: it was inserted around the trigger`,
      };
    }
  }
  const pending = await db.execute<{ n: unknown }>(
    sql`SELECT count(DISTINCT event_id) AS n FROM consent_chain_pending`,
  );
  return {
    ok: !problem,
    checked: walked.checked,
    pending: toNumber(pending.rows[0]?.n),
    head,
    headSigned: headKey !== null,
    headKey,
    heads: { database: heads.length, witnessed: witnessedHeads.length },
    witness: witness ? { path: witness.path, lastMatching, unreadableLines: read.unreadable } : null,
    acknowledged: acknowledgements.map(({ at, actor, reason, broken, resume }) => ({
      at,
      actor,
      reason,
      broken,
      resume,
    })),
    pagesChecked,
    problem,
    elapsedMs: Date.now() - started,
  };
}

/** Why no configured key verifies `head`: its key is unknown here, or the signature is not that key's. */
function headSignatureProblem(head: ChainHead, signer: ConsentSigner, retiredKeys: readonly ConsentPublicKey[]) {
  const at = `the signed head at seq ${head.seq}`;
  if (head.keyId === signer.keyId)
    return `${at} does not carry a valid signature of this server's key (${signer.keyId})`;
  if (retiredKeys.some((retired) => retired.keyId === head.keyId))
    return `${at} does not carry a valid signature of the retired key ${head.keyId}`;
  return `${at} was signed with key ${head.keyId}, which is neither this server's key (${signer.keyId}) nor a retired one (CONSENT_RETIRED_PUBLIC_KEYS)`;
}

/**
 * Records in the witness that the chain no longer holds the heads signed so far and that signing
 * resumes from the chain as it is now (decision 081): what an operator does after finding the cause
 * (a restore that lost the newest events, say). Refused while the chain itself does not hold
 * together from its first row, or when nothing is broken. The acknowledgement is signed, appended to
 * the witness and to the audit log; the check lists it from then on.
 */
export async function acknowledgeChainBreak(
  db: Db,
  signer: ConsentSigner,
  retiredKeys: readonly ConsentPublicKey[],
  witness: ConsentWitness,
  input: { actor: string; reason: string; now?: Date },
): Promise<{ ok: true; acknowledgement: AcknowledgedBreak } | { ok: false; reason: string }> {
  const reason = input.reason.trim();
  if (reason.length < 10)
    return {
      ok: false,
      reason: "Say in a sentence what happened (at least 10 characters): it is kept with the acknowledgement.",
    };
  const result = await verifyConsentChain(db, signer, retiredKeys, witness);
  if (result.ok) return { ok: false, reason: "The chain holds: there is no break to acknowledge." };
  const problem = result.problem!;
  if (problem.kind !== "witness_mismatch" && problem.kind !== "head_mismatch") {
    return {
      ok: false,
      reason: `Only heads the chain no longer holds can be acknowledged; this is another fault, to repair from a backup: ${problem.detail}.`,
    };
  }
  const top = await chainTop(db);
  if (!top) return { ok: false, reason: "The chain is empty: restore it from a backup." };
  const at = (input.now ?? new Date()).toISOString();
  const broken =
    problem.seq === null ? null : { seq: problem.seq, hash: (await brokenHash(db, witness, problem.seq)) ?? "" };
  const unsigned = { kind: "acknowledged" as const, at, actor: input.actor, reason, broken, resume: top };
  const entry: WitnessAcknowledgement = {
    ...unsigned,
    keyId: signer.keyId,
    signature: signer.sign(acknowledgementMessage(unsigned)),
  };
  witness.append(entry);
  await db
    .insert(auditLog)
    .values({
      actor: input.actor,
      action: "consent.chain_break_acknowledged",
      entity: "consent_chain",
      before: broken ? JSON.stringify(broken) : null,
      after: JSON.stringify({ resume: top, reason }),
    });
  return { ok: true, acknowledgement: { at, actor: input.actor, reason, broken, resume: top } };
}

/** The hash the broken head at `seq` had: from the witness, or the database's head row. */
async function brokenHash(db: Db, witness: ConsentWitness, seq: number) {
  const { entries } = await witness.readAll();
  const fromWitness = entries.findLast((entry): entry is WitnessedHead => entry.kind === "head" && entry.seq === seq);
  if (fromWitness) return fromWitness.hash;
  const row = await db.execute<{ hash: string }>(
    sql`SELECT hash FROM consent_chain_heads WHERE seq = ${seq} ORDER BY id DESC LIMIT 1`,
  );
  return row.rows[0]?.hash ?? null;
}

/**
 * What an examiner needs to link one event to a signed head with the certificate alone (decision
 * 081): the event's canonical JSON as hashed, and for every row after it up to the first head that
 * covers it and that a configured key signed, that row's event digest (version 5; null for an older
 * row, which hashed its whole text and cannot be linked without other people's data).
 */
export type EventProof = {
  version: number;
  eventJson: string;
  links: { seq: number; version: number; digest: string | null }[];
  head: { seq: number; hash: string; signedAt: string; keyId: string; publicKey: string; signature: string } | null;
};

const PROOF_MAX_LINKS = 50_000;

export async function eventProof(
  db: Db,
  link: { seq: number; eventId: number },
  signer: ConsentSigner,
  retiredKeys: readonly ConsentPublicKey[] = [],
): Promise<EventProof | null> {
  const row = await db.execute<{ version: unknown }>(sql`SELECT version FROM consent_chain WHERE seq = ${link.seq}`);
  if (!row.rows[0]) return null;
  const version = toNumber(row.rows[0].version);
  const eventJson = (await canonicalEventJsonOf(db, [link.eventId], version)).get(link.eventId);
  if (eventJson === undefined) return null;
  const candidates = await db.execute<HeadRow>(
    sql`SELECT id, seq, hash, key_id, public_key, signature, signed_at FROM consent_chain_heads WHERE seq >= ${link.seq} AND seq <= ${link.seq + PROOF_MAX_LINKS} ORDER BY seq, id LIMIT 20`,
  );
  let head: EventProof["head"] = null;
  for (const candidate of candidates.rows.map(headOf)) {
    const key = headSigningKey(candidate, signer, retiredKeys);
    if (!key) continue;
    head = {
      seq: candidate.seq,
      hash: candidate.hash,
      signedAt: candidate.signedAt.toISOString(),
      keyId: candidate.keyId,
      publicKey: key.publicKey,
      signature: candidate.signature,
    };
    break;
  }
  if (!head) return { version, eventJson, links: [], head: null };
  const rows = await db.execute<{ seq: unknown; version: unknown; event_id: unknown }>(
    sql`SELECT seq, version, event_id FROM consent_chain WHERE seq > ${link.seq} AND seq <= ${head.seq} ORDER BY seq`,
  );
  const ids = rows.rows.filter((r) => toNumber(r.version) >= 5).map((r) => toNumber(r.event_id));
  const texts = await canonicalEventJsonOf(db, ids, CHAIN_VERSION);
  const links = rows.rows.map((r) => {
    const text = toNumber(r.version) >= 5 ? texts.get(toNumber(r.event_id)) : undefined;
    return {
      seq: toNumber(r.seq),
      version: toNumber(r.version),
      digest: text === undefined ? null : eventDigest(text),
    };
  });
  return { version, eventJson, links, head };
}

/**
 * Whether the chain holds what the signer trusts, as the last poll of this process found it: the
 * admin pages and the staff home show a broken chain from this until it holds again.
 */
export type ChainIntegrity = { state: "unknown" | "ok" | "broken"; problem: ChainProblem | null; since: string | null };

type IntegrityHolder = { current: ChainIntegrity };
const integrityHolder: IntegrityHolder = ((
  globalThis as { __consentChainIntegrity?: IntegrityHolder }
).__consentChainIntegrity ??= {
  current: { state: "unknown", problem: null, since: null },
});

export function consentChainIntegrity(): ChainIntegrity {
  return integrityHolder.current;
}

/** Notes the outcome of a signing poll; answers whether the state changed (to log it once). */
export function noteChainIntegrity(problem: ChainProblem | null, now = new Date()) {
  const before = integrityHolder.current;
  if (!problem) {
    integrityHolder.current = {
      state: "ok",
      problem: null,
      since: before.state === "ok" ? before.since : now.toISOString(),
    };
    return before.state === "broken";
  }
  const same = before.state === "broken" && before.problem?.detail === problem.detail;
  integrityHolder.current = { state: "broken", problem, since: same ? before.since : now.toISOString() };
  return !same;
}

/**
 * Seals queued events every `pollMs` on every process (the lock takes turns) and signs the head
 * when due: every `signEveryMs` when it moved, and at the first poll after a rotation (a head
 * signed by one of `retiredKeys`). A chain that no longer holds a trusted head is not signed: one
 * `error` line when that is first seen, and the integrity state the admin pages show. With
 * `witnessMail`, the day's head (and a break, at once) is mailed to the compliance address.
 */
export function startConsentChain(options: {
  db: Db;
  signer: ConsentSigner;
  retiredKeys?: readonly ConsentPublicKey[];
  witness?: ConsentWitness;
  witnessMail?: WitnessMail;
  logger: JobLogger;
  pollMs?: number;
  signEveryMs: number;
  autoStart?: boolean;
}): JobLoop {
  const { db, signer, retiredKeys, witness, witnessMail, logger } = options;
  return startJobLoop({
    name: "consent-chain",
    logger,
    pollMs: options.pollMs ?? 1000,
    autoStart: options.autoStart,
    drain: async (isStopped) => {
      const sealed = await sealConsentChain(db, { isStopped });
      try {
        const head = await signConsentChainHead(db, signer, {
          minIntervalMs: options.signEveryMs,
          retiredKeys,
          witness,
        });
        if (head)
          logger.info({ job: "consent-chain", seq: head.seq, keyId: head.keyId }, "signed the consent chain's head");
        if (noteChainIntegrity(null))
          logger.info({ job: "consent-chain" }, "the consent chain holds its signed heads again; signing resumed");
      } catch (error) {
        if (!(error instanceof ConsentChainBrokenError)) throw error;
        if (noteChainIntegrity(error.problem)) {
          logger.error(
            { job: "consent-chain", problem: error.problem.kind, seq: error.problem.seq, witness: witness?.path },
            `the consent chain no longer holds a head it signed; no head is signed until this is resolved: ${error.problem.detail}`,
          );
          if (witnessMail) await mailChainBroken(witnessMail, error.problem, logger);
        }
      }
      if (witnessMail && witness) await mailDailyHead(witnessMail, witness, signer, retiredKeys ?? [], logger);
      return sealed;
    },
  });
}
