import { openFirstAdminSetup } from "~/auth/first-admin-setup.server";
import { closeDatabase, getDatabase } from "~/db/database.server";
import { resumeDncUploads } from "~/services/dnc/upload.server";
import { startEmailWorker } from "~/services/providers/email.server";
import { createLogEmailTransport, createSmtpTransport } from "~/services/providers/email-transport.server";
import type { JobLoop } from "~/services/job-loop.server";
import { startPostbackWorker } from "~/services/subscription/conversion-postback.server";
import { startDoubleOptInExpiry } from "~/services/subscription/double-opt-in.server";
import { startHousekeeping } from "~/services/housekeeping.server";
import { startConsentChain } from "~/services/consent/chain.server";
import { retiredKeysFromEnv, signerFromEnv } from "~/services/consent/signing.server";
import { witnessFromEnv } from "~/services/consent/witness.server";
import { startCampaignSender } from "~/services/sending/engine.server";
import { createSmsChannel } from "~/services/sending/sms-channel.server";
import { createRndApi } from "~/services/providers/rnd-api.server";
import { rndPolicyFromEnv } from "~/services/consent/rnd-settings.server";
import { createEmailChannel, mailgunEventLookup } from "~/services/newsletter/email-channel.server";
import { createLogNewsletterMailer, createSmtpNewsletterMailer } from "~/services/newsletter/mailer.server";
import { startNewsletterHousekeeping } from "~/services/newsletter/housekeeping.server";
import { startContentSync, type ContentSync } from "~/services/content/sync.server";
import { createRedirectMap, startRedirectMap } from "~/services/redirects/redirect-map.server";
import { digestSources, issueSettings, unsubscribeMailbox } from "./newsletter-admin.server";
import { getEnv } from "./env.server";
import { logger } from "./logger.server";
import { smsTransportFromEnv } from "./sms-transport-from-env.server";
import { processRecorder } from "~/services/analytics/process.server";
import { startAnalyticsFlusher } from "~/services/analytics/flusher.server";
import { createRollupWriter } from "~/services/analytics/rollup-writer.server";
import { startImportWorker } from "~/services/import/import-worker.server";

/** Every job loop of this process; each stops after the message or batch it is working on. */
let jobs: JobLoop[] = [];
/** The published articles of this process, kept current (decision 049). */
let contentSync: ContentSync | undefined;

export function getContentSync() {
  if (!contentSync) throw new Error("the runtime has not started");
  return contentSync;
}

/** The old addresses this process answers 301 for, kept current (decision 160). */
const redirectMap = createRedirectMap();

export function getRedirectMap() {
  return redirectMap;
}

/** Opens (and migrates) the database and starts the job loops. */
export async function startRuntime() {
  const env = getEnv();
  const database = await getDatabase();
  const { db } = database;
  const transport = smsTransportFromEnv(env, db);
  const mail = env.SMTP_URL
    ? createSmtpTransport(env.SMTP_URL, env.MAIL_FROM)
    : createLogEmailTransport((entry, message) => logger.info(entry, message));
  const engine = { db, logger, siteUrl: env.SITE_URL, dncPolicy: env.DNC_POLICY, inDoubtAfterSeconds: env.SEND_IN_DOUBT_SECONDS };
  const newsletterMailer = env.SMTP_URL
    ? createSmtpNewsletterMailer(env.SMTP_URL, env.MAIL_FROM)
    : createLogNewsletterMailer((entry, message) => logger.info(entry, message));
  const emailChannel = createEmailChannel({
    mailer: newsletterMailer,
    ratePerSecond: env.NEWSLETTER_RATE,
    settings: issueSettings(),
    known: digestSources,
    unsubscribeMailbox: unsubscribeMailbox(),
    lookup: env.MAILGUN_API_KEY && env.MAILGUN_DOMAIN ? mailgunEventLookup({ apiBase: env.MAILGUN_API_BASE, domain: env.MAILGUN_DOMAIN, apiKey: env.MAILGUN_API_KEY }) : undefined,
  });
  contentSync = await startContentSync({ db, databaseUrl: env.DATABASE_URL, logger });
  const redirects = await startRedirectMap({ db, map: redirectMap, logger });
  jobs = [
    contentSync,
    redirects,
    startEmailWorker({ db, transport: mail, logger }),
    // Every text from the number, campaigns and texts of their own alike (decision 068).
    startCampaignSender({
      ...engine,
      channel: createSmsChannel({
        transport,
        ratePerSecond: env.SMS_MPS,
        dncPolicy: env.DNC_POLICY,
        quietHoursOffsetMs: env.SEND_TEST_QUIET_HOURS_OFFSET_MINUTES * 60_000,
        rnd: {
          policy: rndPolicyFromEnv(env),
          api: env.RND_API_URL && env.RND_API_KEY ? createRndApi({ url: env.RND_API_URL, apiKey: env.RND_API_KEY }) : undefined,
          onApiError: (error) => logger.warn({ err: error.message }, "the Reassigned Numbers Database did not answer; the texts that need it wait"),
        },
      }),
    }),
    startCampaignSender({ ...engine, channel: emailChannel }),
    startNewsletterHousekeeping({ db, logger }),
    // Both run whatever the settings: postbacks queued before a restart still go, and opt-ins left
    // pending when double opt-in is switched off still expire.
    startPostbackWorker({ db, logger }),
    startDoubleOptInExpiry({ db, logger }),
    startHousekeeping({ db, logger, intervalMs: env.HOUSEKEEPING_INTERVAL_SECONDS * 1000 }),
    // Every process seals (they take turns on a lock), so the chain keeps up with any one of them down.
    startConsentChain({
      db,
      logger,
      signer: signerFromEnv(env),
      retiredKeys: retiredKeysFromEnv(env),
      witness: witnessFromEnv(env),
      witnessMail: env.CONSENT_WITNESS_EMAIL ? { to: env.CONSENT_WITNESS_EMAIL, transport: mail, siteName: env.SITE_NAME, publicKey: signerFromEnv(env).publicKey } : undefined,
      signEveryMs: env.CONSENT_HEAD_SIGN_SECONDS * 1000,
    }),
  ];
  // Imports of a WordPress or Ghost site, and one an interrupted process left (decision 159).
  jobs.push(startImportWorker({ db, embedded: database.kind === "pglite", logger }));
  // The page views this process counts, written every ANALYTICS_FLUSH_SECONDS and at the stop.
  const recorder = processRecorder();
  if (recorder) {
    const rollups = createRollupWriter(db);
    jobs.push(startAnalyticsFlusher({ recorder, writer: rollups, salts: rollups, site: env.SITE_URL, logger, intervalMs: env.ANALYTICS_FLUSH_SECONDS * 1000 }));
  }
  logger.info(
    {
      database: database.kind,
      smsTransport: transport.name,
      mailTransport: mail.name,
      dncPolicy: env.DNC_POLICY,
      rnd: env.RND_API_URL ? "api" : "files",
      smsMps: env.SMS_MPS,
      doubleOptIn: env.SMS_DOUBLE_OPT_IN,
      conversionPostbacks: Boolean(env.CONVERSION_POSTBACK_URL),
      analytics: recorder ? { timeZone: env.ANALYTICS_TIME_ZONE, flushSeconds: env.ANALYTICS_FLUSH_SECONDS } : "off",
    },
    "runtime started",
  );
  void resumeDncUploads(db).then(
    (resumed) => resumed > 0 && logger.info({ resumed }, "finished applying Do-Not-Call uploads interrupted by a stop"),
    (error: unknown) => logger.error({ err: error }, "could not finish applying interrupted Do-Not-Call uploads"),
  );
  const setupUrl = await openFirstAdminSetup(db, env.SITE_URL);
  if (setupUrl) logger.warn({ setupUrl }, `No admin account yet. Create the first one at ${setupUrl} (valid once, until the server restarts), or run npm run admin:create.`);
  return database;
}

/** Finishes the message being sent, then closes the database. */
export async function stopRuntime() {
  await Promise.all(jobs.map((job) => job.stop()));
  jobs = [];
  contentSync = undefined;
  await closeDatabase();
}
