import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "scripts/**/*.test.ts"],
    environment: "node",
    // Vitest's default is one file at a time on a two-core machine (cores - 1); most files wait on
    // PostgreSQL and timers, so two at once cut the run by about a quarter.
    maxWorkers: 2,
    setupFiles: ["./tests/support/vitest-setup.ts"],
  },
});
