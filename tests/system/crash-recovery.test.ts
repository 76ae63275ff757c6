import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { DbKind } from "~/db/client.server";
import { createPostgresDatabase } from "../support/test-db";
import { openSiteDatabase, smsRecordsByPhone } from "./support/inspect";
import { startSite, type SiteProcess } from "./support/site";
import { mobileNumber, postOptIn, toE164, type OptInOutcome } from "./support/traffic";

const OPT_INS = 2_000;
const CLIENTS = 8;
const KILLS = 2;

/**
 * kill -9 of the server in the middle of a stream of opt-ins, the way crash harnesses test
 * durability: every opt-in the site answered as saved ("ok") must be stored exactly once, with
 * its consent event and its welcome text; one that got no answer ("info") may be stored once or
 * not at all, but never in part; one refused ("fail") must be absent.
 */
async function streamWithKills(target: { dataDir?: string; url?: string }, env: Record<string, string>) {
  let site: SiteProcess = await startSite(env);
  const outcomes = new Map<string, OptInOutcome>();
  const killAt = Array.from({ length: KILLS }, (_, i) => Math.floor(((i + 1) * OPT_INS) / (KILLS + 1) + (Math.random() - 0.5) * 300));
  let next = 0;
  let answered = 0;
  let restarting: Promise<void> | undefined;
  let kills = 0;

  const client = async (clientId: number) => {
    for (;;) {
      if (restarting) await restarting;
      const index = next++;
      if (index >= OPT_INS) return;
      const phone = mobileNumber(index);
      // One distinct client address per opt-in keeps the per-IP limits out of the way.
      const result = await postOptIn(site.url, phone, { "X-Forwarded-For": `198.19.${Math.floor(index / 250)}.${(index % 250) + 1}` });
      outcomes.set(toE164(phone), result.outcome);
      answered++;
      if (kills < KILLS && answered >= killAt[kills]! && !restarting) {
        kills++;
        restarting = (async () => {
          await site.kill9();
          site = await startSite(env);
        })();
        await restarting;
        restarting = undefined;
      }
      void clientId;
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
  expect(kills).toBe(KILLS);
  expect(await site.stop()).toBe(0);

  const database = await openSiteDatabase(target);
  try {
    const records = await smsRecordsByPhone(database);
    const tally = { ok: 0, fail: 0, info: 0, infoStored: 0 };
    for (const [phone, outcome] of outcomes) {
      tally[outcome]++;
      const stored = records.subscribers.get(phone) ?? 0;
      const trail = [stored, records.consentEvents.get(phone) ?? 0, records.welcomes.get(phone) ?? 0];
      if (outcome === "ok") expect(trail, `${phone} was answered as saved`).toEqual([1, 1, 1]);
      if (outcome === "fail") expect(trail, `${phone} was refused`).toEqual([0, 0, 0]);
      if (outcome === "info") {
        // All or nothing: the subscriber, its consent event and its welcome text commit together.
        expect([[0, 0, 0], [1, 1, 1]], `${phone} had no answer`).toContainEqual(trail);
        tally.infoStored += stored;
      }
    }
    expect(outcomes.size).toBe(OPT_INS);
    expect(records.subscribers.size).toBe(tally.ok + tally.infoStored);
    // The stream really crossed the kills: most answered, a few cut off.
    expect(tally.ok).toBeGreaterThan(OPT_INS * 0.9);
    return tally;
  } finally {
    await database.close();
  }
}

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe.each<DbKind>(["pglite", "postgres"])("kill -9 during 2,000 opt-ins", (kind) => {
  it(`keeps every answered opt-in exactly once on ${kind}`, async () => {
    if (kind === "pglite") {
      const dataDir = mkdtempSync(path.join(tmpdir(), "crash-pglite-"));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const tally = await streamWithKills({ dataDir }, { DATA_DIR: dataDir });
      console.info(`pglite: ${JSON.stringify(tally)}`);
    } else {
      const database = await createPostgresDatabase();
      cleanups.push(database.drop);
      const tally = await streamWithKills({ url: database.url }, { DATABASE_URL: database.url });
      console.info(`postgres: ${JSON.stringify(tally)}`);
    }
  });
});
