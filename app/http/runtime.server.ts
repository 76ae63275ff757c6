import { openFirstAdminSetup } from "~/auth/first-admin-setup.server";
import { closeDatabase, getDatabase } from "~/db/database.server";
import { resumeDncUploads } from "~/services/dnc-upload.server";
import { startOutboxWorker, type OutboxWorker } from "~/services/outbox-worker.server";
import { startEmailWorker } from "~/services/email.server";
import { createLogEmailTransport, createSmtpTransport } from "~/services/email-transport.server";
import type { JobLoop } from "~/services/job-loop.server";
import { getEnv } from "./env.server";
import { logger } from "./logger.server";
import { smsTransportFromEnv } from "./sms-transport-from-env.server";

let worker: OutboxWorker | undefined;
let emailWorker: JobLoop | undefined;

/** Opens (and migrates) the database and starts the SMS outbox worker. */
export async function startRuntime() {
  const env = getEnv();
  const database = await getDatabase();
  const transport = smsTransportFromEnv(env);
  worker = startOutboxWorker({ db: database.db, transport, logger });
  const mail = env.SMTP_URL
    ? createSmtpTransport(env.SMTP_URL, env.MAIL_FROM)
    : createLogEmailTransport((entry, message) => logger.info(entry, message));
  emailWorker = startEmailWorker({ db: database.db, transport: mail, logger });
  logger.info({ database: database.kind, smsTransport: transport.name, mailTransport: mail.name, dncPolicy: env.DNC_POLICY }, "runtime started");
  void resumeDncUploads(database.db).then(
    (resumed) => resumed > 0 && logger.info({ resumed }, "finished applying Do-Not-Call uploads interrupted by a stop"),
    (error: unknown) => logger.error({ err: error }, "could not finish applying interrupted Do-Not-Call uploads"),
  );
  const setupUrl = await openFirstAdminSetup(database.db, env.SITE_URL);
  if (setupUrl) logger.warn({ setupUrl }, `No admin account yet. Create the first one at ${setupUrl} (valid once, until the server restarts), or run npm run admin:create.`);
  return database;
}

/** Finishes the message being sent, then closes the database. */
export async function stopRuntime() {
  await Promise.all([worker?.stop(), emailWorker?.stop()]);
  worker = undefined;
  emailWorker = undefined;
  await closeDatabase();
}
