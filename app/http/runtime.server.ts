import { closeDatabase, getDatabase } from "~/db/database.server";
import { startOutboxWorker, type OutboxWorker } from "~/services/outbox-worker.server";
import { startEmailWorker } from "~/services/email.server";
import { createLogEmailTransport, createSmtpTransport } from "~/services/email-transport.server";
import type { JobLoop } from "~/services/job-loop.server";
import { startCampaignSender } from "~/services/sending/engine.server";
import { createSmsChannel } from "~/services/sending/sms-channel.server";
import { getEnv } from "./env.server";
import { logger } from "./logger.server";
import { smsTransportFromEnv } from "./sms-transport-from-env.server";

let worker: OutboxWorker | undefined;
let emailWorker: JobLoop | undefined;
let campaignSender: JobLoop | undefined;

/** Opens (and migrates) the database and starts the SMS outbox worker. */
export async function startRuntime() {
  const env = getEnv();
  const database = await getDatabase();
  const transport = smsTransportFromEnv(env, database.db);
  worker = startOutboxWorker({ db: database.db, transport, logger });
  campaignSender = startCampaignSender({
    db: database.db,
    channel: createSmsChannel({
      transport,
      ratePerSecond: env.SMS_MPS,
      dncPolicy: env.DNC_POLICY,
      quietHoursOffsetMs: env.SEND_TEST_QUIET_HOURS_OFFSET_MINUTES * 60_000,
    }),
    logger,
    siteUrl: env.SITE_URL,
    dncPolicy: env.DNC_POLICY,
    inDoubtAfterSeconds: env.SEND_IN_DOUBT_SECONDS,
  });
  const mail = env.SMTP_URL
    ? createSmtpTransport(env.SMTP_URL, env.MAIL_FROM)
    : createLogEmailTransport((entry, message) => logger.info(entry, message));
  emailWorker = startEmailWorker({ db: database.db, transport: mail, logger });
  logger.info({ database: database.kind, smsTransport: transport.name, mailTransport: mail.name, dncPolicy: env.DNC_POLICY, smsMps: env.SMS_MPS }, "runtime started");
  return database;
}

/** Finishes the message being sent, then closes the database. */
export async function stopRuntime() {
  await Promise.all([worker?.stop(), emailWorker?.stop(), campaignSender?.stop()]);
  worker = undefined;
  campaignSender = undefined;
  emailWorker = undefined;
  await closeDatabase();
}
