import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, createNonce, inlineScriptHashes } from "./csp";

const hash = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

describe("inlineScriptHashes", () => {
  it("hashes executable inline scripts and the deferred hydration module, not data blocks or files", () => {
    const html =
      '<script type="application/ld+json">{"a":1}</script><script src="/x.js"></script>' +
      '<script nonce="n">window.a=1</script><script type="text/x-deferred-module" id="rr-boot">import "/m.js";</script>';
    expect(inlineScriptHashes(html)).toEqual([hash("window.a=1"), hash('import "/m.js";')]);
  });
});

describe("contentSecurityPolicy", () => {
  it("allows only the given sources, plus strict-dynamic, and no scripts at all without sources", () => {
    expect(contentSecurityPolicy(["'nonce-abc'"])).toContain("script-src 'nonce-abc' 'strict-dynamic'");
    expect(contentSecurityPolicy([])).toContain("script-src 'none'");
    expect(contentSecurityPolicy([])).toContain("frame-ancestors 'none'");
  });

  it("makes a new 128-bit nonce every time", () => {
    const a = createNonce();
    expect(Buffer.from(a, "base64")).toHaveLength(16);
    expect(createNonce()).not.toBe(a);
  });
});
