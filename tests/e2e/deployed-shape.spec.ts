import { request as playwrightRequest } from "@playwright/test";
import { E2E_ADMIN, E2E_BASE_URL, E2E_HOST, E2E_HTTP_PORT } from "../support/e2e-env";
import { expect, randomIp, test } from "../support/fixtures";

/**
 * What the deployed shape adds to every journey (decision 058): redirects stay on https and the
 * public host, the session cookie is Secure, the plain-http port only redirects, and forwarded
 * headers a client writes change nothing. Runs through each proxy header style.
 */
test.describe("behind the TLS proxy", { tag: "@header-styles" }, () => {
  test("every redirect stays on https and the public host", async ({ request, baseURL }) => {
    const publicOrigin = new URL(baseURL!).origin;
    const stays = (location: string | undefined) => {
      expect(location, "a redirect names where to go").toBeTruthy();
      const target = new URL(location!, `${publicOrigin}/`);
      expect([publicOrigin, E2E_BASE_URL]).toContain(target.origin);
    };
    for (const path of ["/admin", "/admin/sms", "/account", "/admin/articles/new", "/admin/newsletter"]) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBeGreaterThanOrEqual(300);
      expect(response.status(), path).toBeLessThan(400);
      stays(response.headers()["location"]);
    }
    const signOut = await request.post("/auth/sign-out", { maxRedirects: 0, headers: { Origin: publicOrigin } });
    expect(signOut.status()).toBeLessThan(400);
    if (signOut.status() >= 300) stays(signOut.headers()["location"]);
  });

  test("signing in sets a Secure, HttpOnly session cookie for the public host only", async ({ page }) => {
    await page.goto("/auth");
    await page.getByLabel("Email").fill(E2E_ADMIN.email);
    await page.getByLabel("Password").fill(E2E_ADMIN.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/admin(\?notice=signedIn)?$/);
    expect(new URL(page.url()).protocol).toBe("https:");
    const session = (await page.context().cookies()).find((cookie) => cookie.name.endsWith("session_token"));
    expect(session).toMatchObject({ name: "__Secure-better-auth.session_token", secure: true, httpOnly: true, sameSite: "Lax", path: "/", domain: E2E_HOST });
  });

  test("a forged forwarded header changes nothing: a foreign origin is still refused", async ({ request }) => {
    const forgeries: Record<string, string>[] = [
      { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" },
      { Forwarded: 'host="evil.example";proto=https' },
    ];
    for (const headers of forgeries) {
      const response = await request.post("/contact", {
        headers: { ...headers, Origin: "https://evil.example" },
        form: { name: "Mallory", email: "mallory@example.com", subject: "Hi", message: "Forged." },
        maxRedirects: 0,
      });
      expect(response.status(), JSON.stringify(headers)).toBe(403);
    }
  });
});

test("the plain-http port only redirects to https on the same host", async () => {
  const http = await playwrightRequest.newContext({ extraHTTPHeaders: { "X-Forwarded-For": randomIp() } });
  try {
    const response = await http.get(`http://${E2E_HOST}:${E2E_HTTP_PORT}/contact?x=1`, { maxRedirects: 0 });
    expect(response.status()).toBe(301);
    expect(response.headers()["location"]).toBe(`https://${E2E_HOST}/contact?x=1`);
  } finally {
    await http.dispose();
  }
});
