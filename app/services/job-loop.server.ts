import type { EventEmitter } from "node:events";
import { databaseErrorReason, isDatabaseUnavailable } from "~/db/unavailable";

export type JobLogger = {
  info: (entry: Record<string, unknown>, message: string) => void;
  warn: (entry: Record<string, unknown>, message: string) => void;
  error: (entry: Record<string, unknown>, message: string) => void;
};

export type JobLoop = { runOnce: () => Promise<number>; stop: () => Promise<void> };

/**
 * Runs `drain` now, every `pollMs`, and whenever `signal` emits "queued"; never two drains at
 * once. `stop` waits for the drain under way (the message being sent) to finish.
 */
export function startJobLoop(options: {
  name: string;
  drain: (isStopped: () => boolean) => Promise<number>;
  logger: JobLogger;
  pollMs?: number;
  signal?: EventEmitter;
  autoStart?: boolean;
}): JobLoop {
  const { drain, logger, pollMs = 1000, signal } = options;
  let stopped = false;
  let running: Promise<number> | null = null;
  let timer: NodeJS.Timeout | null = null;

  const runOnce = () => {
    running ??= drain(() => stopped).finally(() => {
      running = null;
    });
    return running;
  };
  // An unreachable database is an outage, reported once until it is back, not an error per poll.
  let databaseDown = false;
  const tick = () => {
    if (stopped) return;
    runOnce()
      .then(() => {
        if (databaseDown) logger.info({ job: options.name }, "database reachable again");
        databaseDown = false;
      })
      .catch((error: unknown) => {
        if (!isDatabaseUnavailable(error)) return logger.error({ err: error, job: options.name }, "job poll failed");
        if (!databaseDown) logger.warn({ reason: databaseErrorReason(error), job: options.name }, "database unavailable; the job waits for it");
        databaseDown = true;
      })
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, pollMs);
      });
  };
  const onQueued = () => void runOnce().catch(() => {});
  if (options.autoStart !== false) {
    signal?.on("queued", onQueued);
    tick();
  }
  return {
    runOnce,
    stop: async () => {
      stopped = true;
      signal?.off("queued", onQueued);
      if (timer) clearTimeout(timer);
      await running?.catch(() => {});
    },
  };
}

/** 5 s, 10 s, 20 s ... capped at one hour. */
export function backoffSeconds(attempts: number) {
  return Math.min(3600, 5 * 2 ** Math.max(0, attempts - 1));
}
