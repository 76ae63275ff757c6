// Production entry: `node server.mjs` after `npm run build` (npm start does both when needed).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * V8's heap limit when the operator gives none (decision 137). Without one, V8 sizes the heap from
 * the machine's memory (4 GB on a 24 GB machine) and lets the garbage of rendering pages pile up
 * to hundreds of megabytes before it collects. V8 reads the limit only when a process starts, so
 * a start without one runs this file again with it, as a child this process waits for and passes
 * its signals to. A limit given in NODE_OPTIONS or on the command line wins.
 */
const DEFAULT_HEAP_MB = 256;
const PARENT_VARIABLE = "SERVER_HEAP_PARENT_PID";
const FORWARDED_SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"];

function runWithHeapLimit(megabytes) {
  const child = spawn(process.execPath, [...process.execArgv, `--max-old-space-size=${megabytes}`, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: ["inherit", "inherit", "inherit", "ipc"],
    // glibc's malloc gives each thread that allocates an arena of its own and rarely returns them:
    // two bound the native memory of image encoding (decision 137). The operator's value wins.
    env: { MALLOC_ARENA_MAX: "2", ...process.env, [PARENT_VARIABLE]: String(process.pid) },
  });
  const forward = (signal) => child.kill(signal);
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
  return new Promise((resolve) => {
    child.once("error", (error) => {
      process.stdout.write(`${JSON.stringify({ level: 60, time: new Date().toISOString(), err: { message: error.message, code: error.code }, msg: "the server process could not be started" })}\n`);
      resolve(1);
    });
    child.once("exit", (code, signal) => {
      // Ended by a signal (the kernel's out-of-memory killer, say): this process ends the same way.
      if (signal) {
        for (const name of FORWARDED_SIGNALS) process.off(name, forward);
        process.kill(process.pid, signal);
      }
      resolve(code ?? 1);
    });
  });
}

const nodeFlags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
const heapLimitGiven = nodeFlags.some((flag) => /^--max[-_](old[-_]space|heap)[-_]size\b/.test(flag));
// A debugger's port cannot be opened by two processes: under the inspector V8's own limit stays.
const inspected = nodeFlags.some((flag) => flag.startsWith("--inspect"));
if (!heapLimitGiven && !inspected) process.exit(await runWithHeapLimit(DEFAULT_HEAP_MB));

if (process.env[PARENT_VARIABLE] && process.channel) {
  delete process.env[PARENT_VARIABLE];
  process.channel.unref();
  // The parent goes first only when it is killed outright (kill -9): the server goes with it, as
  // if it had been killed itself, so the address and the data folder are never held by a process
  // nobody started.
  process.on("disconnect", () => process.kill(process.pid, "SIGKILL"));
}

// Without the dependencies (a fresh clone) even the logger is missing: the one line by hand.
const pino = await import("pino").then(
  (module) => module.default,
  () => {
    process.stdout.write(`${JSON.stringify({ level: 60, time: new Date().toISOString(), msg: "the dependencies are not installed: run npm install (or npm ci) first" })}\n`);
    process.exit(1);
  },
);

// A reader that went away (a closed pipe) must not turn each log line into an error that keeps the
// process from stopping: lines are dropped, the process goes on and stops when told.
for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});

/** The running server, once started (its logger is the one every later line goes through). */
let server;

// Every line this process writes is JSON, from the first to the last. Until the server's own logger
// exists (its level is a setting), lines go through a plain pino logger like this one.
const plainLog = () => pino({ base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
// Node's warnings (a deprecation in a dependency, say) would be printed as plain text on stderr by
// Node's own listener: replaced by a JSON line.
process.removeAllListeners("warning");
process.on("warning", (warning) => (server?.log ?? plainLog()).warn({ warning: { name: warning.name, code: warning.code, message: warning.message } }, "Node.js warning"));
// A fault nothing caught ends the process as Node would (exit code 1), but as one JSON line.
process.on("uncaughtException", (error) => {
  (server?.log ?? plainLog()).fatal({ err: error }, "uncaught exception; the process stops");
  process.exit(1);
});

// The documented promise: a stop takes at most 10 s. Past that, whatever step still runs is named
// and the process exits non-zero; this timer is not unref'd, so it fires even if a step hangs.
// The handlers are in place before the start: a stop asked for while the server is starting (a
// slow first connection to the database, say) waits for the start, then stops like any other.
const STOP_DEADLINE_MS = 10_000;
let stopping = false;
const stop = async (signal) => {
  if (stopping) return;
  stopping = true;
  setTimeout(() => {
    const log = server?.log ?? plainLog();
    log.fatal({ signal, stillRunning: server?.stopping() ?? ["starting"] }, `the stop took longer than ${STOP_DEADLINE_MS / 1000} s; exiting anyway`);
    process.exit(1);
  }, STOP_DEADLINE_MS);
  if (!server) return;
  await server.close();
  process.exit(0);
};
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => void stop(signal));

const BUILD_ENTRY = new URL("./build/server/index.js", import.meta.url);
try {
  const { startServer } = await import(BUILD_ENTRY.href);
  server = await startServer();
} catch (error) {
  // What the operator must change (a bad setting, a port in use, a database that cannot be
  // opened, no build): what to do, without a stack trace. Anything else is ours: with the stack.
  const log = plainLog();
  if (error?.name === "EnvError") log.fatal({ problems: error.problems }, error.message);
  else if (error?.name === "StartError") log.fatal(error.details, error.message);
  else if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes(fileURLToPath(BUILD_ENTRY)))
    log.fatal({ missing: "build/server/index.js" }, "there is no build to serve: run npm run build first, or start with npm start, which builds when needed");
  else log.fatal({ err: error }, "the server could not start");
  log.flush?.();
  process.exit(1);
}
// Asked to stop while starting: stop now that there is a server to stop.
if (stopping) {
  await server.close();
  process.exit(0);
}
