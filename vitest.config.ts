import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "scripts/**/*.test.ts"],
    environment: "node",
    // Vitest's default is one file at a time on a two-core machine (cores - 1); most files wait on
    // PostgreSQL and timers, so more at once fill the waits: on this 2-core machine the whole run
    // took 441 s with two (beside the build), 259 s with three and 252 s with four (alone).
    maxWorkers: 3,
    setupFiles: ["./tests/support/vitest-setup.ts"],
  },
});
