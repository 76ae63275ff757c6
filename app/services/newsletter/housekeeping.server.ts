import type { Db } from "~/db/client.server";
import { startJobLoop, type JobLogger } from "../job-loop.server";
import { expireUnconfirmed } from "./subscription.server";

/** Every ten minutes on every process: sign-ups left unconfirmed past their link's life expire (idempotent). */
export function startNewsletterHousekeeping(options: { db: Db; logger: JobLogger; pollMs?: number }) {
  return startJobLoop({
    name: "newsletter-housekeeping",
    logger: options.logger,
    pollMs: options.pollMs ?? 10 * 60_000,
    drain: async () => {
      const expired = await expireUnconfirmed(options.db);
      if (expired > 0) options.logger.info({ expired }, "unconfirmed newsletter sign-ups expired");
      return expired;
    },
  });
}
