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
    // Vitest's 5 s default is a speed limit in disguise: a file that walks every admin route or
    // seeds a database took 5-9 s when the machine ran at half its usual speed. Speed is measured
    // by the benchmarks; here a limit only stops a test that hangs.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    setupFiles: ["./tests/support/vitest-setup.ts"],
  },
});
