import { defineConfig } from "vitest/config";

// System tests: real server processes (node server.mjs from the production build), real
// PostgreSQL servers, killed and restarted. They run after the build, one file at a time: each
// file already loads both cores.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ["tests/system/**/*.test.ts"],
    environment: "node",
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 120_000,
  },
});
