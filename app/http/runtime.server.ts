import { closeDatabase, getDatabase } from "~/db/database.server";
import { startOutboxWorker, type OutboxWorker } from "~/services/outbox-worker.server";
import { startEmailWorker } from "~/services/email.server";
import { createLogEmailTransport, createSmtpTransport } from "~/services/email-transport.server";
import type { JobLoop } from "~/services/job-loop.server";
import { startHousekeeping } from "~/services/housekeeping.server";
import { getEnv } from "./env.server";
import { logger } from "./logger.server";
import { smsTransportFromEnv } from "./sms-transport-from-env.server";

let worker: OutboxWorker | undefined;
let emailWorker: JobLoop | undefined;
let housekeeping: JobLoop | undefined;

/** Opens (and migrates) the database and starts the job loops: SMS outbox, e-mail outbox, housekeeping. */
export async function startRuntime() {
  const env = getEnv();
  const database = await getDatabase();
  const transport = smsTransportFromEnv(env);
  worker = startOutboxWorker({ db: database.db, transport, logger });
  const mail = env.SMTP_URL
    ? createSmtpTransport(env.SMTP_URL, env.MAIL_FROM)
    : createLogEmailTransport((entry, message) => logger.info(entry, message));
  emailWorker = startEmailWorker({ db: database.db, transport: mail, logger });
  housekeeping = startHousekeeping({ db: database.db, logger, intervalMs: env.HOUSEKEEPING_INTERVAL_SECONDS * 1000 });
  logger.info({ database: database.kind, smsTransport: transport.name, mailTransport: mail.name, dncPolicy: env.DNC_POLICY }, "runtime started");
  return database;
}

/** Finishes the message being sent, then closes the database. */
export async function stopRuntime() {
  await Promise.all([worker?.stop(), emailWorker?.stop(), housekeeping?.stop()]);
  worker = undefined;
  emailWorker = undefined;
  housekeeping = undefined;
  await closeDatabase();
}
