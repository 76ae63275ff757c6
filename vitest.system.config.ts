import { defineConfig } from "vitest/config";

// System tests: real server processes (node server.mjs from the production build), real
// PostgreSQL servers, killed and restarted. They run after the build, two files at a time: most of
// a file's time is waiting for a process to start, stop or reach a deadline, so two at once took
// 402 s against 736 s one at a time on this 2-core machine, with the same results.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ["tests/system/**/*.test.ts"],
    environment: "node",
    maxWorkers: 2,
    testTimeout: 240_000,
    hookTimeout: 120_000,
  },
});
