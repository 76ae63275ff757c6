// Production entry: `node server.mjs` after `npm run build` (npm start does both when needed).
const { startServer } = await import("./build/server/index.js");
const server = await startServer();

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
    process.exit(0);
  });
}
