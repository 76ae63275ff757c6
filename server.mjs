// Production entry: `node server.mjs` after `npm run build` (npm start does both when needed).
import pino from "pino";

// A reader that went away (a closed pipe) must not turn each log line into an error that keeps the
// process from stopping: lines are dropped, the process goes on and stops when told.
for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});

let server;
try {
  const { startServer } = await import("./build/server/index.js");
  server = await startServer();
} catch (error) {
  // The server's own logger may not exist yet (its level is a setting): a plain pino line.
  // A bad setting is the operator's to fix: the list, without a stack trace.
  const log = pino({ base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
  if (error?.name === "EnvError") log.fatal({ problems: error.problems }, error.message);
  else log.fatal({ err: error }, "the server could not start");
  log.flush?.();
  process.exit(1);
}

// The documented promise: a stop takes at most 10 s. Past that, whatever step still runs is named
// and the process exits non-zero; this timer is not unref'd, so it fires even if a step hangs.
const STOP_DEADLINE_MS = 10_000;
let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      server.log.fatal({ signal, stillRunning: server.stopping() }, `the stop took longer than ${STOP_DEADLINE_MS / 1000} s; exiting anyway`);
      process.exit(1);
    }, STOP_DEADLINE_MS);
    await server.close();
    process.exit(0);
  });
}
