import { spawnSync } from "node:child_process";
import { expect } from "vitest";
import { BUILD_SITE_URL, TEST_AUTH_SECRET } from "./site";
import { randomClientIp } from "./traffic";

/** Creates an admin in the database with `npm run admin:create` (as operators do). */
export function createAdmin(env: Record<string, string>, admin: { email: string; password: string }) {
  const created = spawnSync(process.execPath, ["--import", "tsx", "scripts/admin-create.ts", admin.email, admin.password], {
    env: { ...process.env, NODE_ENV: "development", AUTH_SECRET: TEST_AUTH_SECRET, ...env },
    encoding: "utf8",
  });
  expect(created.status, created.stderr).toBe(0);
}

/** Signs in over HTTP and returns the Cookie header the browser would send afterwards. */
export async function signIn(siteUrl: string, admin: { email: string; password: string }) {
  const response = await fetch(`${siteUrl}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: BUILD_SITE_URL, "X-Forwarded-For": randomClientIp() },
    body: JSON.stringify(admin),
  });
  expect(response.status).toBe(200);
  return response.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
}
