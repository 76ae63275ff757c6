import { seedArticleFiles } from "~/content/seed/seed-articles.server";
import { importSeedArticles } from "~/services/content/import.server";
import { smsConfig } from "./schema";
import type { Db } from "./client.server";

export const SMS_CONFIG_ID = 1;

/**
 * The welcome text a new install starts with: brand, frequency, rates, HELP and STOP in one segment.
 * A text message: its apostrophe stays straight, GSM-7 (a curly one makes it UCS-2; decision 147).
 */
export function defaultWelcomeMessage(siteName: string) {
  return `${siteName} Alerts: You're subscribed to market alerts. Up to 3 msgs/day. Msg&data rates may apply. Reply HELP for help, STOP to cancel.`;
}

/** Idempotent: creates what the app needs to run and never overwrites an edit. */
export async function seedDatabase(db: Db, siteName: string) {
  await db
    .insert(smsConfig)
    .values({ id: SMS_CONFIG_ID, welcomeMessage: defaultWelcomeMessage(siteName) })
    .onConflictDoNothing({ target: smsConfig.id });
  // First start: the seed articles become the first rows of the editorial desk (decision 048).
  await importSeedArticles(db, seedArticleFiles());
}
