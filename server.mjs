// Production entry: `node server.mjs` after `npm run build` (npm start does both when needed).
import pino from "pino";

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

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
    process.exit(0);
  });
}
