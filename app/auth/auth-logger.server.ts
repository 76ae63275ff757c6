import type { Logger } from "pino";

type AuthLevel = "debug" | "info" | "warn" | "error";

/**
 * better-auth reports a refused origin or callback address as an error, followed by an info hint
 * about trustedOrigins. Both are caused by the client, not by us: a warning and a debug line.
 */
const REFUSED_REQUEST = /^Invalid (origin|callbackURL|redirectURL|errorCallbackURL|newUserCallbackURL)\b/;
const TRUSTED_ORIGINS_HINT = /^If it's a valid URL, please add /;

/** better-auth's `logger.log`: its messages as pino JSON lines (the request id comes from pino's mixin). */
export function authLogSink(logger: Pick<Logger, AuthLevel>) {
  return (level: AuthLevel, message: string, ...args: unknown[]) => {
    const text = String(message).trim();
    let pinoLevel: AuthLevel = level;
    if (REFUSED_REQUEST.test(text)) pinoLevel = "warn";
    else if (TRUSTED_ORIGINS_HINT.test(text)) pinoLevel = "debug";
    const errors = args.filter((arg): arg is Error => arg instanceof Error);
    const details = args.filter((arg) => !(arg instanceof Error)).map((arg) => (typeof arg === "string" ? arg.trim() : arg));
    const entry: Record<string, unknown> = { source: "better-auth" };
    if (errors[0]) entry.err = errors[0];
    if (details.length) entry.details = details;
    logger[pinoLevel](entry, text);
  };
}
