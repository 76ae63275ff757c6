import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Env } from "~/http/env.server";

let generated: string | undefined;

/** AUTH_SECRET, or one generated on first start and kept in DATA_DIR (a single embedded install). */
export function authSecret(env: Env) {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  if (env.DATA_DIR === "memory") return (generated ??= randomBytes(48).toString("base64"));
  const file = path.join(env.DATA_DIR, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(env.DATA_DIR, { recursive: true });
  const secret = randomBytes(48).toString("base64");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
