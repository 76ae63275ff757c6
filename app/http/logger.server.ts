import pino from "pino";
import { getEnv } from "./env.server";

/** JSON logs on stdout; one child logger per request carries its request id. */
export const logger = pino({
  level: getEnv().NODE_ENV === "test" && !process.env.LOG_LEVEL ? "warn" : getEnv().LOG_LEVEL,
  base: undefined,
  timestamp: pino.stdTimeFunctions.isoTime,
  redact: { paths: ["req.headers.cookie", "req.headers.authorization", "password", "*.password"], remove: true },
});
