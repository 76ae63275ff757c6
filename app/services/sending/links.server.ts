import { createHash, randomInt } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { linkClicks, shortLinks } from "~/db/schema";
import { findUrls, replaceUrls, SHORT_CODE_LENGTH } from "~/lib/short-links";
import type { MachineClickReason } from "./click-judge";

type Executor = Pick<Db, "select" | "insert" | "execute">;

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

/** A random code without look-alike characters (0/O, 1/l/I): 57^7 ≈ 2 * 10^12 codes. */
export function randomCode(length = SHORT_CODE_LENGTH) {
  let code = "";
  for (let i = 0; i < length; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

export const CODE_PATTERN = /^[A-Za-z0-9]{7,16}$/;

/** The short code for one URL of one campaign: the same URL keeps its code (a test send, then the real one). */
export async function shortCodeFor(db: Executor, campaignId: string, url: string) {
  for (let attempt = 0; attempt < 5; attempt++) {
    await db.insert(shortLinks).values({ code: randomCode(), url, campaignId }).onConflictDoNothing();
    const [row] = await db
      .select({ code: shortLinks.code })
      .from(shortLinks)
      .where(and(eq(shortLinks.campaignId, campaignId), eq(shortLinks.url, url)));
    if (row) return row.code;
    // The random code was taken by another link: draw again.
  }
  throw new Error("could not allocate a short link code");
}

/** The message as sent: every URL replaced by its first-party short link. */
export async function renderLinks(db: Executor, campaignId: string, body: string, siteUrl: string) {
  const codes = new Map<string, string>();
  for (const url of findUrls(body)) {
    if (url.startsWith(`${siteUrl}/l/`)) continue;
    codes.set(url, await shortCodeFor(db, campaignId, url));
  }
  return replaceUrls(body, (url) => (codes.has(url) ? `${siteUrl}/l/${codes.get(url)}` : url));
}

/** Where a code points, or null. */
export async function resolveShortLink(db: Executor, code: string) {
  if (!CODE_PATTERN.test(code)) return null;
  const [row] = await db.select({ url: shortLinks.url, campaignId: shortLinks.campaignId }).from(shortLinks).where(eq(shortLinks.code, code));
  return row ?? null;
}

/**
 * Records a request for a short link: a person's click (machine null) or a machine's fetch with its
 * reason (click-judge.ts). The visitor is a hash of address and browser, for unique clickers
 * without keeping either.
 */
export async function recordClick(db: Executor, click: { code: string; campaignId: string | null; ip: string; userAgent: string; machine?: MachineClickReason | null }) {
  const visitor = createHash("sha256").update(`${click.ip}\n${click.userAgent}`).digest("base64url").slice(0, 22);
  await db.insert(linkClicks).values({ code: click.code, campaignId: click.campaignId, visitor, machine: click.machine ?? null });
}

/** Seconds from the moment an e-mail copy of this campaign was handed over to `now`; null when unknown. */
export async function secondsSinceCopySent(db: Pick<Db, "execute">, campaignId: string, copyId: number, now = new Date()) {
  const result = await db.execute<{ sent_at: string | Date | null }>(
    sql`SELECT sent_at FROM campaign_recipients WHERE id = ${copyId} AND campaign_id = ${campaignId}`,
  );
  const sentAt = result.rows[0]?.sent_at;
  return sentAt == null ? null : (now.getTime() - new Date(sentAt).getTime()) / 1000;
}

export type ClickCounts = {
  /** People's clicks, and the different people among them. */
  clicks: number;
  uniqueClickers: number;
  /** Fetches by machines (scanners, previews, HEAD), by reason: shown, never counted as clicks. */
  machineFetches: number;
  machineReasons: { reason: MachineClickReason; count: number }[];
};

export async function clickCounts(db: Pick<Db, "execute">, campaignId: string): Promise<ClickCounts> {
  const result = await db.execute<{ machine: string | null; clicks: number | string; clickers: number | string }>(
    sql`SELECT machine, count(*)::int AS clicks, count(DISTINCT visitor)::int AS clickers FROM link_clicks WHERE campaign_id = ${campaignId} GROUP BY machine`,
  );
  const people = result.rows.find((row) => row.machine === null);
  const machineReasons = result.rows
    .filter((row) => row.machine !== null)
    .map((row) => ({ reason: row.machine as MachineClickReason, count: Number(row.clicks) }))
    .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
  return {
    clicks: Number(people?.clicks ?? 0),
    uniqueClickers: Number(people?.clickers ?? 0),
    machineFetches: machineReasons.reduce((sum, row) => sum + row.count, 0),
    machineReasons,
  };
}
