// What a build depends on besides the code: the public settings baked into prerendered pages.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export const BUILD_INFO_FILE = "build/build-info.json";
const BAKED_SETTINGS = ["SITE_NAME", "SITE_URL", "SITE_EMAIL", "SITE_PHONE", "OFFER_URL"];
const SOURCE_PATHS = ["app", "server", "public", "package-lock.json", "vite.config.ts", "react-router.config.ts"];

export function loadDotEnv() {
  if (existsSync(".env")) process.loadEnvFile(".env");
}

/**
 * The SITE_URL a build bakes in: the setting, or, when it is unset, the address the server will
 * listen on (the same rule as defaultSiteUrl in app/http/env.server.ts; a test holds them equal).
 */
export function bakedSiteUrl(env = process.env) {
  if (env.SITE_URL) return env.SITE_URL.replace(/\/+$/, "");
  const host = env.HOST || "0.0.0.0";
  const name = host === "0.0.0.0" || host === "::" ? "localhost" : host.includes(":") ? `[${host}]` : host;
  return `http://${name}:${env.PORT || "3000"}`;
}

export function settingsFingerprint(env = process.env) {
  const baked = Object.fromEntries(BAKED_SETTINGS.map((name) => [name, env[name] ?? ""]));
  baked.SITE_URL = bakedSiteUrl(env);
  // The footer's copyright year is part of every prerendered page.
  baked.YEAR = String(new Date().getFullYear());
  return createHash("sha256").update(JSON.stringify(baked)).digest("hex").slice(0, 16);
}

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce((newest, name) => Math.max(newest, newestMtime(path.join(target, name))), stat.mtimeMs);
}

export function sourcesMtime() {
  return Math.max(...SOURCE_PATHS.map(newestMtime));
}

/** Why the build must be made again, or null when it is current. */
export function staleReason() {
  if (!existsSync("build/server/index.js") || !existsSync(BUILD_INFO_FILE)) return "no build yet";
  const info = JSON.parse(readFileSync(BUILD_INFO_FILE, "utf8"));
  if (info.settings !== settingsFingerprint()) return "site settings changed since the last build";
  if (sourcesMtime() > info.builtAt) return "sources changed since the last build";
  return null;
}
