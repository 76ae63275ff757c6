import { closeDatabase, getDatabase } from "~/db/database.server";
import { startOutboxWorker, type OutboxWorker } from "~/services/outbox-worker.server";
import { getEnv } from "./env.server";
import { logger } from "./logger.server";
import { smsTransportFromEnv } from "./sms-transport-from-env.server";

let worker: OutboxWorker | undefined;

/** Opens (and migrates) the database and starts the SMS outbox worker. */
export async function startRuntime() {
  const env = getEnv();
  const database = await getDatabase();
  const transport = smsTransportFromEnv(env);
  worker = startOutboxWorker({ db: database.db, transport, logger });
  logger.info({ database: database.kind, smsTransport: transport.name, dncPolicy: env.DNC_POLICY }, "runtime started");
  return database;
}

/** Finishes the message being sent, then closes the database. */
export async function stopRuntime() {
  await worker?.stop();
  worker = undefined;
  await closeDatabase();
}
