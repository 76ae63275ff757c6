import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articles, auditLog } from "~/db/schema";
import { announceContentChanged, notifyContentChanged } from "./changes.server";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Serialises every change of the featured flag (advisory transaction lock; any constant of this app). */
export const FEATURED_LOCK_KEY = 72_410_616;

/**
 * Decision 051: exactly one published article is featured. Marking one moves the flag in one
 * transaction; when none is (the featured one was unpublished), the newest published takes over.
 */
export async function moveFeaturedTo(tx: Tx, id: string) {
  await tx.update(articles).set({ featured: false }).where(and(eq(articles.featured, true), ne(articles.id, id)));
  await tx.update(articles).set({ featured: true }).where(eq(articles.id, id));
}

export async function ensureFeatured(tx: Tx) {
  await tx.execute(sql`
    UPDATE articles SET featured = true
    WHERE id = (SELECT id FROM articles WHERE status = 'published' ORDER BY publish_at DESC, slug LIMIT 1)
      AND NOT EXISTS (SELECT 1 FROM articles WHERE status = 'published' AND featured)`);
}

/** An editor marks a published article as the featured one. */
export async function markFeatured(db: Db, input: { id: string; actor: string }) {
  const result = await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${FEATURED_LOCK_KEY})`);
    const [row] = await tx.select({ status: articles.status, featured: articles.featured }).from(articles).where(eq(articles.id, input.id)).for("update");
    if (!row) return { ok: false as const, code: "not_found" as const };
    if (row.status !== "published") return { ok: false as const, code: "wrong_state" as const, status: row.status };
    if (row.featured) return { ok: true as const, changed: false };
    const [previous] = await tx.select({ id: articles.id }).from(articles).where(and(eq(articles.featured, true), eq(articles.status, "published")));
    await moveFeaturedTo(tx, input.id);
    await tx.insert(auditLog).values({ actor: input.actor, action: "article.featured", entity: `article:${input.id}`, before: JSON.stringify({ featured: previous?.id ?? null }), after: JSON.stringify({ featured: input.id }) });
    await notifyContentChanged(tx, "live");
    return { ok: true as const, changed: true };
  });
  if (result.ok && result.changed) announceContentChanged("live");
  return result;
}
