import { readFileSync } from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { engines: { node: string }; allowScripts?: Record<string, boolean> };
type Locked = { version?: string; engines?: { node?: string }; os?: string[]; cpu?: string[]; hasInstallScript?: boolean };
const lock = JSON.parse(readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, Locked> };
const locked = Object.entries(lock.packages)
  .filter(([where]) => where !== "")
  .map(([where, entry]) => ({ name: where.slice(where.lastIndexOf("node_modules/") + "node_modules/".length), ...entry }));

/** The oldest release of each Node.js line package.json supports (20.19.0, 22.13.0, 24.0.0). */
function oldestSupported(range: string) {
  return range.split("||").map((part) => semver.minVersion(part.trim())!.version);
}

/**
 * What a clean `npm install` checks, held here so a dependency bump that breaks it fails a test
 * instead of printing a warning to the next newcomer (decision 095).
 */
describe("what npm install finds in the lockfile", () => {
  it("supports each Node.js line the README names", () => {
    expect(oldestSupported(pkg.engines.node)).toEqual(["20.19.0", "22.13.0", "24.0.0"]);
  });

  it("every package installed on Linux declares engines that include every supported Node.js version (no EBADENGINE)", () => {
    const installable = locked.filter((entry) => (!entry.os || entry.os.includes("linux")) && (!entry.cpu || entry.cpu.includes("x64") || entry.cpu.includes("arm64")));
    const refused = installable.flatMap((entry) =>
      oldestSupported(pkg.engines.node)
        .filter((version) => entry.engines?.node && !semver.satisfies(version, entry.engines.node))
        .map((version) => `${entry.name}@${entry.version} wants node ${entry.engines!.node}, not ${version}`),
    );
    expect(refused).toEqual([]);
  });

  it("every install script is approved or denied in package.json's allowScripts", () => {
    const undecided = locked.filter((entry) => entry.hasInstallScript && typeof pkg.allowScripts?.[entry.name] !== "boolean").map((entry) => `${entry.name}@${entry.version}`);
    expect(undecided).toEqual([]);
    expect(pkg.allowScripts).toEqual({ esbuild: true, "vnu-jar": false });
  });
});
