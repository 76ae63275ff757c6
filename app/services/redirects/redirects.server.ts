import { asc, count, eq, gt, ilike, inArray, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { auditLog, redirects } from "~/db/schema";
import { REDIRECT_REFUSALS as R } from "~/lib/redirect-texts";
import { announceContentChanged, notifyContentChanged } from "~/services/content/changes.server";
import { parseOldPath, parseTarget, sourceAsTargetPath, targetKeys } from "./old-path";

export { normalizeOldPath, parseOldPath, parseTarget } from "./old-path";

/** Like the other admin lists. */
export const REDIRECTS_PAGE_SIZE = 50;
/** Rows per statement: 5 parameters each, far below PostgreSQL's 65,535. */
const WRITE_BATCH = 1_000;
/** Values per IN list when checking a batch against the table. */
const CHECK_BATCH = 1_000;
/** Rows per read when the server loads the whole table into memory. */
export const LOAD_BATCH = 10_000;

export type RedirectInput = { path: string; target: string };
export type RedirectMeta = { origin: string; actor: string | null };
export type UpsertResult = { written: number; refused: { path: string; reason: string }[] };

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < items.length; at += size) out.push(items.slice(at, at + size));
  return out;
}

/** The old paths among `keys` that are stored sources. */
async function storedSources(db: Db, keys: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const part of chunks([...new Set(keys)], CHECK_BATCH)) {
    for (const row of await db.select({ path: redirects.path }).from(redirects).where(inArray(redirects.path, part))) found.add(row.path);
  }
  return found;
}

/** For each of `sources`, a stored redirect (its old path) whose target a request would look up there. */
async function storedTargetHolders(db: Db, sources: string[]): Promise<Map<string, string>> {
  const wanted = new Set(sources);
  const holders = new Map<string, string>();
  const pathOfTarget = sql`split_part(split_part(${redirects.target}, '#', 1), '?', 1)`;
  for (const part of chunks([...new Set(sources.map(sourceAsTargetPath))], CHECK_BATCH)) {
    const rows = await db.select({ path: redirects.path, target: redirects.target }).from(redirects).where(inArray(pathOfTarget, part));
    for (const row of rows) for (const key of targetKeys(row.target)) if (wanted.has(key) && key !== row.path) holders.set(key, row.path);
  }
  return holders;
}

/**
 * Stores old addresses and where they go, many at once (an import of 10,000 posts brings about
 * 20,000): each path normalized (old-path.ts), each target a path of this site; a row that would
 * make a chain or a loop (its target is an old address, or another redirect points at its path)
 * is refused with the reason, the rest written in one transaction. Every process then reloads
 * its map (decision 160).
 */
export async function upsertRedirects(db: Db, rows: RedirectInput[], meta: RedirectMeta): Promise<UpsertResult> {
  const refused: UpsertResult["refused"] = [];
  const candidates: { path: string; target: string; keys: string[] }[] = [];
  const firstTarget = new Map<string, string>();
  for (const row of rows) {
    const source = parseOldPath(String(row.path ?? ""));
    if (!source.ok) {
      refused.push({ path: String(row.path ?? ""), reason: source.reason });
      continue;
    }
    const target = parseTarget(String(row.target ?? ""));
    if (!target.ok) {
      refused.push({ path: source.path, reason: target.reason });
      continue;
    }
    const keys = targetKeys(target.target);
    if (keys.includes(source.path)) {
      refused.push({ path: source.path, reason: R.selfLoop });
      continue;
    }
    const earlier = firstTarget.get(source.path);
    if (earlier !== undefined) {
      if (earlier !== target.target) refused.push({ path: source.path, reason: R.duplicate });
      continue;
    }
    firstTarget.set(source.path, target.target);
    candidates.push({ path: source.path, target: target.target, keys });
  }
  if (candidates.length === 0) return { written: 0, refused };

  const [sources, holders] = await Promise.all([storedSources(db, candidates.flatMap((row) => row.keys)), storedTargetHolders(db, candidates.map((row) => row.path))]);
  // In order: a row refused for a chain with an earlier row of the batch leaves that one standing.
  const acceptedSources = new Set<string>();
  const acceptedTargetKeys = new Set<string>();
  const accepted: { path: string; target: string }[] = [];
  for (const row of candidates) {
    const chained = row.keys.find((key) => sources.has(key) || acceptedSources.has(key));
    if (chained !== undefined) {
      refused.push({ path: row.path, reason: R.targetIsSource(row.target) });
      continue;
    }
    if (holders.has(row.path) || acceptedTargetKeys.has(row.path)) {
      refused.push({ path: row.path, reason: R.sourceIsTarget(row.path) });
      continue;
    }
    acceptedSources.add(row.path);
    for (const key of row.keys) acceptedTargetKeys.add(key);
    accepted.push({ path: row.path, target: row.target });
  }
  if (accepted.length === 0) return { written: 0, refused };

  await db.transaction(async (tx) => {
    const single = accepted.length === 1 ? accepted[0]! : null;
    const [before] = single ? await tx.select({ target: redirects.target }).from(redirects).where(eq(redirects.path, single.path)) : [];
    for (const part of chunks(accepted, WRITE_BATCH)) {
      await tx
        .insert(redirects)
        .values(part.map((row) => ({ ...row, origin: meta.origin, updatedBy: meta.actor })))
        .onConflictDoUpdate({
          target: redirects.path,
          set: { target: sql`excluded.target`, origin: sql`excluded.origin`, updatedBy: sql`excluded.updated_by`, updatedAt: sql`now()` },
        });
    }
    // One line for an editor's change, one per call for an import (not one per address).
    await tx.insert(auditLog).values(
      single
        ? { actor: meta.actor, action: "redirect.saved", entity: "redirects", before: before ? JSON.stringify({ path: single.path, target: before.target }) : null, after: JSON.stringify(single) }
        : { actor: meta.actor, action: "redirect.imported", entity: "redirects", after: JSON.stringify({ written: accepted.length, refused: refused.length, origin: meta.origin }) },
    );
    await notifyContentChanged(tx, "redirects");
  });
  announceContentChanged("redirects");
  return { written: accepted.length, refused };
}

export async function getRedirect(db: Db, path: string) {
  const [row] = await db.select().from(redirects).where(eq(redirects.path, path));
  return row ?? null;
}

/** Removes one redirect by its stored old path; false when there was none. */
export async function deleteRedirect(db: Db, path: string, actor: string | null): Promise<boolean> {
  const removed = await db.transaction(async (tx) => {
    const [row] = await tx.delete(redirects).where(eq(redirects.path, path)).returning({ path: redirects.path, target: redirects.target });
    if (!row) return false;
    await tx.insert(auditLog).values({ actor, action: "redirect.deleted", entity: "redirects", before: JSON.stringify(row) });
    await notifyContentChanged(tx, "redirects");
    return true;
  });
  if (removed) announceContentChanged("redirects");
  return removed;
}

function searchCondition(q: string | undefined) {
  const text = q?.trim();
  if (!text) return undefined;
  const pattern = `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  return or(ilike(redirects.path, pattern), ilike(redirects.target, pattern));
}

export async function countRedirects(db: Db, q?: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(redirects).where(searchCondition(q));
  return Number(row?.n ?? 0);
}

/** One page of the admin list, old addresses in order, and how many match in all. */
export async function listRedirects(db: Db, options: { q?: string; page?: number } = {}) {
  const page = Math.max(1, options.page ?? 1);
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(redirects)
      .where(searchCondition(options.q))
      .orderBy(asc(redirects.path))
      .limit(REDIRECTS_PAGE_SIZE)
      .offset((page - 1) * REDIRECTS_PAGE_SIZE),
    countRedirects(db, options.q),
  ]);
  return { rows, total };
}

/** Rows in old-path order after `after` (keyset), for the map and the CSV export. */
export async function redirectsAfter(db: Db, after: string | null, limit = LOAD_BATCH) {
  return db
    .select()
    .from(redirects)
    .where(after === null ? undefined : gt(redirects.path, after))
    .orderBy(asc(redirects.path))
    .limit(limit);
}
