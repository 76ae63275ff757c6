import { expect, test } from "../support/fixtures";

const scriptSrc = (csp: string) => /script-src ([^;]+)/.exec(csp)?.[1] ?? "";

test("every page carries a strict Content-Security-Policy and the other security headers", async ({ request }) => {
  for (const path of ["/", "/home", "/about", "/articles/bonds-guide", "/opt-in", "/auth", "/does-not-exist"]) {
    const response = await request.get(path);
    const headers = response.headers();
    const csp = headers["content-security-policy"] ?? "";
    expect(csp, path).toContain("frame-ancestors 'none'");
    expect(csp, path).toContain("object-src 'none'");
    expect(csp, path).toContain("base-uri 'none'");
    expect(scriptSrc(csp), path).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(scriptSrc(csp), path).toMatch(/'(nonce|sha256)-|^'none'$/);
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["permissions-policy"]).toContain("camera=()");
    expect(headers["x-frame-options"]).toBe("DENY");
    // Anonymous public pages set no cookies, so a CDN may cache them.
    expect(headers["set-cookie"], path).toBeUndefined();
  }
});

test("server-rendered pages get a fresh nonce per response, on every inline script", async ({ request }) => {
  const nonces = [];
  for (let i = 0; i < 2; i++) {
    const response = await request.get("/auth");
    const nonce = /'nonce-([^']+)'/.exec(response.headers()["content-security-policy"] ?? "")?.[1];
    expect(nonce).toBeTruthy();
    const html = await response.text();
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)].map((m) => m[1]!).filter((attrs) => !/ld\+json|x-deferred-module/.test(attrs));
    expect(inline.length).toBeGreaterThan(0);
    for (const attrs of inline) expect(attrs).toContain(`nonce="${nonce}"`);
    nonces.push(nonce);
  }
  expect(nonces[0]).not.toBe(nonces[1]);
});

test("prerendered pages list the hashes of their inline scripts; pages without scripts allow none", async ({ request }) => {
  const response = await request.get("/home");
  expect(scriptSrc(response.headers()["content-security-policy"] ?? "")).toMatch(/'sha256-[A-Za-z0-9+/=]+'/);
  expect(scriptSrc((await request.get("/about")).headers()["content-security-policy"] ?? "")).toBe("'none'");
  // A prefill is written into attributes only: the prerendered opt-in page keeps its scripts and hashes.
  const plain = (await request.get("/opt-in")).headers()["content-security-policy"];
  expect(scriptSrc(plain ?? "")).toMatch(/'sha256-[A-Za-z0-9+/=]+'/);
  expect((await request.get("/opt-in?f_name=Betsy&sub2=x")).headers()["content-security-policy"]).toBe(plain);
});

test("JSON-LD cannot be broken out of by a title", async ({ request }) => {
  const html = await (await request.get("/articles/esg-investing")).text();
  for (const block of html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)) {
    expect(block[1]).not.toContain("</");
    expect(() => JSON.parse(block[1]!)).not.toThrow();
  }
});

test("hydrating pages start their JavaScript after load: no module preloads in the HTML", async ({ request }) => {
  for (const path of ["/home", "/opt-in", "/contact", "/auth"]) {
    const html = await (await request.get(path)).text();
    expect(html, path).not.toContain('rel="modulepreload"');
    expect(html, path).toContain('type="text/x-deferred-module"');
  }
});
