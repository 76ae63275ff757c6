import { expect, test } from "../support/fixtures";

test("health and readiness endpoints", async ({ request }) => {
  const health = await request.get("/healthz");
  expect(health.status()).toBe(200);
  expect(await health.json()).toEqual({ status: "ok" });
  const ready = await request.get("/readyz");
  expect(ready.status()).toBe(200);
  expect(await ready.json()).toEqual({ status: "ready", database: "pglite" });
});

test("every routed response names its request id", async ({ request }) => {
  const first = (await request.get("/opt-in?sub2=a")).headers()["x-request-id"];
  const second = (await request.get("/opt-in?sub2=b")).headers()["x-request-id"];
  expect(first).toMatch(/^[0-9a-f-]{36}$/);
  expect(second).not.toBe(first);
});

test("SIGTERM stops the server cleanly within 10 s, closing the database", async ({ request }) => {
  const { spawn } = await import("node:child_process");
  const { existsSync, mkdtempSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const path = await import("node:path");
  const dataDir = mkdtempSync(path.join(tmpdir(), "shutdown-"));
  const port = 4190 + Math.floor(Math.random() * 50);
  const child = spawn(process.execPath, ["server.mjs"], {
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    stdio: "ignore",
  });
  try {
    await expect.poll(async () => (await request.get(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.status(), { timeout: 30_000 }).toBe(200);
    expect(existsSync(path.join(dataDir, "pglite.lock"))).toBe(true);
    const started = Date.now();
    child.kill("SIGTERM");
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(existsSync(path.join(dataDir, "pglite.lock"))).toBe(false);
  } finally {
    child.kill("SIGKILL");
  }
});
