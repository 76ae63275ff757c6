import { and, desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { subscriptionAttributions } from "~/db/schema";
import { attributionOf, formPageTagged, type Attribution } from "../analytics/attribution";
import type { VisitLookup } from "../analytics/visit-lookup.server";
import type { RequestEvidence } from "./evidence";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Where a subscription request came from (decision 149): its form page's address and the
 * visitor's entry of the day. A lookup that fails (the table unreadable for a moment) leaves the
 * subscription unattributed rather than refused: the consent matters more than its source.
 */
export async function resolveAttribution(evidence: RequestEvidence, visits: VisitLookup | undefined): Promise<Attribution> {
  let entry;
  if (visits) {
    try {
      // A tagged form page decides alone; the visit then only adds its referrer, from memory (no I/O).
      entry = await visits.entryOf(evidence.ip, evidence.userAgent, { memoryOnly: formPageTagged(evidence.pageUrl) });
    } catch {
      entry = undefined;
    }
  }
  return attributionOf(evidence.pageUrl, entry);
}

/**
 * The subscription_attributions columns of an attribution (without subscriber and consent event).
 * `gpc`: the sign-up's request sent Sec-GPC: 1; kept here, not in the consent event, whose fields
 * the hash chain covers (decision 153).
 */
export function attributionColumns(attribution: Attribution, channel: "sms" | "email", gpc = false) {
  const [sub1 = "", sub2 = "", sub3 = "", sub4 = "", sub5 = ""] = attribution.subs;
  return {
    channel,
    basis: attribution.basis,
    formPath: attribution.formPath,
    entryPath: attribution.entryPath,
    entryAt: attribution.entryAt,
    visitChannel: attribution.visitChannel,
    referrer: attribution.referrer,
    utmSource: attribution.source,
    utmMedium: attribution.medium,
    utmCampaign: attribution.campaign,
    clickIds: attribution.clickIds.join(","),
    sub1,
    sub2,
    sub3,
    sub4,
    sub5,
    gpc,
  } satisfies Omit<typeof subscriptionAttributions.$inferInsert, "subscriberId" | "consentEventId">;
}

/** Stores the attribution of the sign-up whose consent event is `consentEventId`, in the caller's transaction. */
export async function insertAttribution(tx: Tx, subscriberId: string, consentEventId: number, channel: "sms" | "email", attribution: Attribution, gpc = false) {
  await tx.insert(subscriptionAttributions).values({ subscriberId, consentEventId, ...attributionColumns(attribution, channel, gpc) });
}

/**
 * Whether the subscription's latest sign-up on `channel` came with Sec-GPC: 1, for a conversion
 * that happens later (the "Y" of a double opt-in, decision 153).
 */
export async function signUpSentGpc(tx: Pick<Db, "select">, subscriberId: string, channel: "sms" | "email") {
  const [row] = await tx
    .select({ gpc: subscriptionAttributions.gpc })
    .from(subscriptionAttributions)
    .where(and(eq(subscriptionAttributions.subscriberId, subscriberId), eq(subscriptionAttributions.channel, channel)))
    .orderBy(desc(subscriptionAttributions.id))
    .limit(1);
  return row?.gpc === true;
}
