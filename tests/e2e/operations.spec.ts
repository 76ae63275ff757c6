import { expect, test } from "../support/fixtures";

test("health and readiness endpoints", async ({ request }) => {
  const health = await request.get("/healthz");
  expect(health.status()).toBe(200);
  expect(await health.json()).toEqual({ status: "ok" });
  const ready = await request.get("/readyz");
  expect(ready.status()).toBe(200);
  // The browser tests run the deployed shape: processes on PostgreSQL behind the proxy.
  // The test server waited for /readyz and for the content pages in memory before any test ran.
  expect(await ready.json()).toEqual({ status: "ready", database: "postgres", livePages: "in memory" });
});

test("every routed response names its request id", async ({ request }) => {
  // Pages answered from memory carry none; every answer of the router does.
  const first = (await request.get("/auth")).headers()["x-request-id"];
  const second = (await request.get("/auth")).headers()["x-request-id"];
  expect(first).toMatch(/^[0-9a-f-]{36}$/);
  expect(second).not.toBe(first);
});
