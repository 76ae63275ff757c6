import { describe, expect, it } from "vitest";
import { deferHydration } from "./defer-hydration.server";

const PAGE =
  '<html><head><link rel="modulepreload" href="/assets/a.js"/><link rel="stylesheet" href="/app.css"/></head>' +
  '<body><main>Hello</main><script>window.ctx=1</script>' +
  '<script type="module" async="" nonce="abc">import * as r from "/assets/r.js";\nwindow.x = r;</script></body></html>';

describe("deferHydration", () => {
  it("drops module preloads and boots the hydration module after load, keeping the nonce", () => {
    const html = deferHydration(PAGE);
    expect(html).not.toContain("modulepreload");
    expect(html).toContain('<link rel="stylesheet" href="/app.css"/>');
    expect(html).toContain('<script type="text/x-deferred-module" id="rr-boot">import * as r from "/assets/r.js";\nwindow.x = r;</script>');
    expect(html).toContain('<script nonce="abc">(function(){');
    expect(html).toContain('addEventListener("load",boot');
    expect(html).not.toContain('type="module" async=""');
    expect(html).toContain("<script>window.ctx=1</script>");
  });

  it("finds the boot module when the nonce comes first", () => {
    const page = '<head><link rel="modulepreload" href="/a.js" nonce="n1"/></head><body><script nonce="n1" type="module" async="">import "/a.js";</script></body>';
    const html = deferHydration(page);
    expect(html).not.toContain("modulepreload");
    expect(html).toContain('<script nonce="n1">(function(){');
    expect(html).toContain('<script type="text/x-deferred-module" id="rr-boot">import "/a.js";</script>');
  });

  it("leaves a page without JavaScript alone", () => {
    const page = '<html><head><link rel="stylesheet" href="/app.css"/></head><body>Hi</body></html>';
    expect(deferHydration(page)).toBe(page);
  });

  it("does not read $-patterns in the code as replacement tokens", () => {
    const page = '<body><script type="module" async="">const a = "$&$1";</script></body>';
    expect(deferHydration(page)).toContain('const a = "$&$1";');
  });
});
