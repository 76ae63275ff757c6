import { AsyncLocalStorage } from "node:async_hooks";
import pino from "pino";
import { getEnv } from "./env.server";

/** The request being handled, so every log line written for it carries its id. */
export const requestContext = new AsyncLocalStorage<{ requestId: string; databaseUnavailable?: boolean }>();

/**
 * stdout, written without blocking the event loop (pino's default), but bounded: when nobody reads
 * stdout (a stalled pipe or log agent), pino would keep every line in memory for as long as the
 * stall lasts. Past LOG_BUFFER_MB, lines are dropped and counted, and a line with the count is
 * logged as soon as one fits again (decision 161).
 */
const stdout = pino.destination({ dest: 1, sync: false, maxLength: Math.round(getEnv().LOG_BUFFER_MB * 1024 * 1024) });

/** JSON logs on stdout; one child logger per request carries its request id. */
export const logger = pino(
  {
    level: getEnv().NODE_ENV === "test" && !process.env.LOG_LEVEL ? "warn" : getEnv().LOG_LEVEL,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ["req.headers.cookie", "req.headers.authorization", "password", "*.password"], remove: true },
    mixin: () => {
      const store = requestContext.getStore();
      return store ? { requestId: store.requestId } : {};
    },
  },
  stdout,
);

let dropped = 0;
let reporter: NodeJS.Timeout | undefined;
stdout.on("drop", () => {
  dropped += 1;
  // Tried again every second until the line about the dropped ones is itself taken (a drop is
  // reported synchronously, so a write that was taken leaves the count where it was).
  // Outside any request's context: the report is the server's own line, not the request's.
  reporter ??= requestContext.exit(() =>
    setInterval(() => {
      const count = dropped;
      logger.warn(
        { dropped: count },
        `${count} log lines were dropped: stdout was not being read and ${getEnv().LOG_BUFFER_MB} MB were waiting`,
      );
      if (dropped === count) {
        dropped = 0;
        clearInterval(reporter);
        reporter = undefined;
      } else {
        dropped -= 1; // this report itself, not one of the site's lines
      }
    }, 1000).unref(),
  );
});
