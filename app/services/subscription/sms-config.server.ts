import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { smsConfig } from "~/db/schema";
import { SMS_CONFIG_ID } from "~/db/seed.server";

type Executor = Pick<Db, "select">;

export async function getWelcomeConfig(db: Executor) {
  const [row] = await db.select().from(smsConfig).where(eq(smsConfig.id, SMS_CONFIG_ID));
  if (!row) throw new Error("sms_config has no row; the database was not seeded");
  return row;
}
