import { and, between, desc, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { adCosts, auditLog } from "~/db/schema";
import { formatCents, type CostEntry, type CostKey } from "./ad-costs";
import type { ReportRange } from "./reports.server";

const match = (key: CostKey) => and(eq(adCosts.day, key.day), eq(adCosts.source, key.source), eq(adCosts.campaign, key.campaign), eq(adCosts.subId, key.subId));

/** The audit entry's text of one cost: its key and amount, readable in the log. */
const described = (key: CostKey, cents: number) => JSON.stringify({ day: key.day, source: key.source, campaign: key.campaign, subId: key.subId, amount: formatCents(cents) });

/**
 * Sets the cost of one key (replacing what was there) in a transaction with its audit entry,
 * which holds the amount before and after. Entering the amount already stored changes nothing
 * and writes nothing.
 */
export async function setCosts(db: Db, entries: CostEntry[], actor: string, action = "ad_cost.set"): Promise<{ changed: number }> {
  return db.transaction(async (tx) => {
    let changed = 0;
    for (const entry of entries) {
      const [before] = await tx.select({ amountCents: adCosts.amountCents }).from(adCosts).where(match(entry)).for("update");
      if (before?.amountCents === entry.amountCents) continue;
      await tx
        .insert(adCosts)
        .values({ ...entry, updatedBy: actor })
        .onConflictDoUpdate({ target: [adCosts.day, adCosts.source, adCosts.campaign, adCosts.subId], set: { amountCents: entry.amountCents, updatedBy: actor, updatedAt: sql`now()` } });
      await tx.insert(auditLog).values({ actor, action, entity: "ad_costs", before: before ? described(entry, before.amountCents) : null, after: described(entry, entry.amountCents) });
      changed += 1;
    }
    return { changed };
  });
}

/** Removes the cost of one key, with its audit entry; false when there was none. */
export async function deleteCost(db: Db, key: CostKey, actor: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [gone] = await tx.delete(adCosts).where(match(key)).returning({ amountCents: adCosts.amountCents });
    if (!gone) return false;
    await tx.insert(auditLog).values({ actor, action: "ad_cost.delete", entity: "ad_costs", before: described(key, gone.amountCents), after: null });
    return true;
  });
}

/** The costs entered for the days of a range, newest day first. */
export async function listCosts(db: Db, range: ReportRange, limit = 500): Promise<CostEntry[]> {
  return db
    .select({ day: adCosts.day, source: adCosts.source, campaign: adCosts.campaign, subId: adCosts.subId, amountCents: adCosts.amountCents })
    .from(adCosts)
    .where(between(adCosts.day, range.from, range.to))
    .orderBy(desc(adCosts.day), adCosts.source, adCosts.campaign, adCosts.subId)
    .limit(limit);
}
