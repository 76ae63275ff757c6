import {
  closeSync,
  createReadStream,
  existsSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";

/**
 * The consent chain's witness outside the database (decision 081): every signed head, appended as
 * one JSON line to a file the database's holder cannot reach. The signer reads its last line before
 * it signs again (a new head must extend it), and the check reads it whole, so deleting events,
 * chain rows and head rows together is still seen. The file is only ever appended to.
 */

/** A head as signed: the signature covers `headMessage(seq, hash, signedAt)` with the key `keyId`. */
export type WitnessedHead = {
  kind: "head";
  seq: number;
  hash: string;
  keyId: string;
  signature: string;
  signedAt: string;
};

/**
 * An operator's statement that the chain no longer holds the heads witnessed before `at`, and that
 * signing resumes from `resume` (the chain's head when it was made). Signed like a head, so a line
 * written by someone without the key is not taken for one.
 */
export type WitnessAcknowledgement = {
  kind: "acknowledged";
  at: string;
  reason: string;
  actor: string;
  broken: { seq: number; hash: string } | null;
  resume: { seq: number; hash: string };
  keyId: string;
  signature: string;
};

/** The day's head was e-mailed to the compliance address (the second witness). */
export type WitnessMailed = { kind: "mailed"; day: string; seq: number; to: string; at: string };

export type WitnessEntry = WitnessedHead | WitnessAcknowledgement | WitnessMailed;

export type ConsentWitness = {
  path: string;
  append: (entry: WitnessEntry) => void;
  /** The last entries (read from the end of the file, at most `maxBytes`), oldest first. */
  tail: (maxBytes?: number) => WitnessEntry[];
  /** Every entry, oldest first, and the number of lines that are not entries. */
  readAll: () => Promise<{ entries: WitnessEntry[]; unreadable: number }>;
};

export function acknowledgementMessage(ack: Omit<WitnessAcknowledgement, "signature" | "keyId">) {
  return `consent-chain-ack-v1\n${ack.at}\n${ack.actor}\n${ack.reason}\n${ack.broken ? `${ack.broken.seq}:${ack.broken.hash}` : "-"}\n${ack.resume.seq}:${ack.resume.hash}`;
}

function parseEntry(line: string): WitnessEntry | null {
  try {
    const value = JSON.parse(line) as WitnessEntry;
    if (value && (value.kind === "head" || value.kind === "acknowledged" || value.kind === "mailed")) return value;
  } catch {
    // Not an entry: counted by readAll, skipped by tail.
  }
  return null;
}

export function fileWitness(file: string): ConsentWitness {
  return {
    path: file,
    append(entry) {
      mkdirSync(path.dirname(file), { recursive: true });
      // O_APPEND: every process sharing the folder writes whole lines at the end; fsync before the head counts as witnessed.
      const fd = openSync(file, "a", 0o640);
      try {
        writeSync(fd, `${JSON.stringify(entry)}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    },
    tail(maxBytes = 64 * 1024) {
      if (!existsSync(file)) return [];
      const fd = openSync(file, "r");
      try {
        const size = fstatSync(fd).size;
        const start = Math.max(0, size - maxBytes);
        const buffer = Buffer.alloc(size - start);
        readSync(fd, buffer, 0, buffer.length, start);
        const lines = buffer.toString("utf8").split("\n");
        if (start > 0) lines.shift(); // a partial first line
        return lines.map(parseEntry).filter((entry): entry is WitnessEntry => entry !== null);
      } finally {
        closeSync(fd);
      }
    },
    async readAll() {
      const entries: WitnessEntry[] = [];
      let unreadable = 0;
      if (!existsSync(file)) return { entries, unreadable };
      const lines = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Infinity });
      for await (const line of lines) {
        if (!line) continue;
        const entry = parseEntry(line);
        if (entry) entries.push(entry);
        else unreadable++;
      }
      return { entries, unreadable };
    },
  };
}

/** CONSENT_WITNESS_FILE, or DATA_DIR/consent-witness.jsonl. */
export function witnessFromEnv(env: { CONSENT_WITNESS_FILE?: string; DATA_DIR: string }): ConsentWitness {
  return fileWitness(path.resolve(env.CONSENT_WITNESS_FILE ?? path.join(env.DATA_DIR, "consent-witness.jsonl")));
}
