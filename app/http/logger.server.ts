import { AsyncLocalStorage } from "node:async_hooks";
import pino from "pino";
import { getEnv } from "./env.server";

/** The request being handled, so every log line written for it carries its id. */
export const requestContext = new AsyncLocalStorage<{ requestId: string; databaseUnavailable?: boolean }>();

/** JSON logs on stdout; one child logger per request carries its request id. */
export const logger = pino({
  level: getEnv().NODE_ENV === "test" && !process.env.LOG_LEVEL ? "warn" : getEnv().LOG_LEVEL,
  base: undefined,
  timestamp: pino.stdTimeFunctions.isoTime,
  redact: { paths: ["req.headers.cookie", "req.headers.authorization", "password", "*.password"], remove: true },
  mixin: () => {
    const store = requestContext.getStore();
    return store ? { requestId: store.requestId } : {};
  },
});
