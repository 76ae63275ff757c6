// Production entry: `node server.mjs` after `npm run build` (npm start does both when needed).
import pino from "pino";

// A reader that went away (a closed pipe) must not turn each log line into an error that keeps the
// process from stopping: lines are dropped, the process goes on and stops when told.
for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});

// The documented promise: a stop takes at most 10 s. Past that, whatever step still runs is named
// and the process exits non-zero; this timer is not unref'd, so it fires even if a step hangs.
// The handlers are in place before the start: a stop asked for while the server is starting (a
// slow first connection to the database, say) waits for the start, then stops like any other.
const STOP_DEADLINE_MS = 10_000;
let server;
let stopping = false;
const stop = async (signal) => {
  if (stopping) return;
  stopping = true;
  setTimeout(() => {
    const log = server?.log ?? pino({ base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
    log.fatal({ signal, stillRunning: server?.stopping() ?? ["starting"] }, `the stop took longer than ${STOP_DEADLINE_MS / 1000} s; exiting anyway`);
    process.exit(1);
  }, STOP_DEADLINE_MS);
  if (!server) return;
  await server.close();
  process.exit(0);
};
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => void stop(signal));

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
// Asked to stop while starting: stop now that there is a server to stop.
if (stopping) {
  await server.close();
  process.exit(0);
}
