import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdmin, signIn } from "./support/admin-session";
import { startSite, type SiteProcess } from "./support/site";

const ADMIN = { email: "retry-after@patriotinvestor.example", password: "Bunker-Hill-1775-Redoubt" };

type Answer = { status: number; retryAfter: string | null };

/**
 * Every answer of 429, from the production server over HTTP, says when to try again: Retry-After
 * in whole seconds, no more than the limit's window (a form's own page included, which React
 * Router passes an action's headers to only through the route's `headers`).
 */
describe("Retry-After on every 429", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "retry-after-"));
  let site: SiteProcess;
  let cookie: string;
  let address = 0;
  /** A client address of its own for each source, so no limit is met by another's requests. */
  const nextAddress = () => `198.18.77.${++address}`;

  beforeAll(async () => {
    createAdmin({ DATA_DIR: path.join(dir, "data") }, ADMIN);
    site = await startSite({ DATA_DIR: path.join(dir, "data") });
    cookie = await signIn(site.url, ADMIN);
  });

  afterAll(async () => {
    await site?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  function post(page: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Answer> {
    return fetch(`${site.url}${page}`, {
      method: "POST",
      headers: { Origin: site.url, "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields),
      redirect: "manual",
    }).then(async (response) => {
      await response.arrayBuffer();
      return { status: response.status, retryAfter: response.headers.get("retry-after") };
    });
  }

  /** Posts until the answer is 429 (at most `tries`), and checks it says when to try again. */
  async function limited(send: (attempt: number) => Promise<Answer>, tries: number, windowSeconds: number) {
    const seen: number[] = [];
    for (let attempt = 0; attempt < tries; attempt++) {
      const answer = await send(attempt);
      seen.push(answer.status);
      if (answer.status !== 429) continue;
      expect(answer.retryAfter, `statuses ${seen.join(", ")}`).toMatch(/^\d+$/);
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(answer.retryAfter)).toBeLessThanOrEqual(windowSeconds);
      return;
    }
    throw new Error(`no 429 after ${tries} posts: ${seen.join(", ")}`);
  }

  it("the /auth form: sign-in and sign-up (per address), and an account locked after failed sign-ins", async () => {
    const signInFrom = nextAddress();
    await limited(() => post("/auth", { intent: "signin", email: "nobody@example.com", password: "wrong-password" }, { "X-Forwarded-For": signInFrom }), 6, 10);
    const signUpFrom = nextAddress();
    await limited((n) => post("/auth", { intent: "signup", email: `new-${n}@example.com`, password: "Lexington-Green-1775" }, { "X-Forwarded-For": signUpFrom }), 8, 60);
    // Ten failures for one account, each from another address, lock it for the rest of 15 minutes.
    await limited(() => post("/auth", { intent: "signin", email: ADMIN.email, password: "not-the-password" }, { "X-Forwarded-For": nextAddress() }), 12, 15 * 60);
  });

  it("the password reset request, the new password and the two-factor step", async () => {
    const forgotFrom = nextAddress();
    await limited(() => post("/auth/forgot", { email: "nobody@example.com" }, { "X-Forwarded-For": forgotFrom }), 6, 60);
    const resetFrom = nextAddress();
    await limited(() => post("/auth/reset", { token: "not-a-token", password: "Concord-Bridge-1775" }, { "X-Forwarded-For": resetFrom }), 110, 60);
    const codeFrom = nextAddress();
    await limited(() => post("/auth/two-factor", { code: "123456" }, { "X-Forwarded-For": codeFrom }), 6, 10);
  });

  it("the account page (password checks, texted codes) and the admin's two-factor page", async () => {
    const from = nextAddress();
    await limited(() => post("/account", { intent: "change-email", newEmail: "elsewhere@example.com", currentPassword: "not-the-password" }, { Cookie: cookie, "X-Forwarded-For": from }), 8, 600);
    const phoneFrom = nextAddress();
    await limited(() => post("/account", { intent: "send-phone-code", phone: "(312) 204-0142" }, { Cookie: cookie, "X-Forwarded-For": phoneFrom }), 6, 60);
    const securityFrom = nextAddress();
    await limited(() => post("/admin/security", { intent: "verify", code: "123456" }, { Cookie: cookie, "X-Forwarded-For": securityFrom }), 6, 10);
  });

  it("better-auth's own endpoints under /api/auth", async () => {
    const from = nextAddress();
    const signInApi = () =>
      fetch(`${site.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { Origin: site.url, "Content-Type": "application/json", "X-Forwarded-For": from },
        body: JSON.stringify({ email: "nobody@example.com", password: "wrong-password" }),
      }).then(async (response) => {
        await response.arrayBuffer();
        return { status: response.status, retryAfter: response.headers.get("retry-after") };
      });
    await limited(signInApi, 6, 10);
  });

  it("the public forms: opt-in (page and API), newsletter and contact", async () => {
    const person = { firstName: "Molly", lastName: "Pitcher", phone: "(312) 555-0177" };
    await limited(() => post("/opt-in", person, { "X-Forwarded-For": nextAddress() }), 8, 600);
    const api = () =>
      fetch(`${site.url}/api/phone-optin`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Forwarded-For": nextAddress() },
        body: JSON.stringify({ ...person, phone: "(312) 555-0178" }),
      }).then(async (response) => {
        await response.arrayBuffer();
        return { status: response.status, retryAfter: response.headers.get("retry-after") };
      });
    await limited(api, 8, 600);
    const newsletterFrom = nextAddress();
    await limited((n) => post("/home", { firstName: "Mercy", lastName: "Warren", email: `mercy-${n}@example.com`, phone: "(312) 204-0143", termsConsent: "on" }, { "X-Forwarded-For": newsletterFrom }), 14, 600);
    const contactFrom = nextAddress();
    await limited(() => post("/contact", { name: "Abigail Adams", email: "abigail@example.com", subject: "Bonds", message: "A question about bonds." }, { "X-Forwarded-For": contactFrom }), 8, 600);
  });
});
