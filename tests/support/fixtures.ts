import { E2E_ADMIN } from "./e2e-env";
import { test as base, expect, type Page } from "@playwright/test";
import { randomInt } from "node:crypto";

/** A documentation-range address per test, so per-IP rate limits see each test as a new visitor. */
export function randomIp() {
  return `198.18.${randomInt(0, 255)}.${randomInt(1, 254)}`;
}

/** A valid, unused-looking US mobile number (212-45X-XXXX; never a 555 or N11 exchange). */
export function randomMobile() {
  return `212-45${[0, 1, 2, 3, 4, 5, 7, 8][randomInt(0, 8)]}-${String(randomInt(0, 9999)).padStart(4, "0")}`;
}

export const DNC_TEST_NUMBER = "(212) 456-9999";

export const test = base.extend({
  extraHTTPHeaders: async ({}, use) => {
    await use({ "X-Forwarded-For": randomIp() });
  },
});

export { expect };

/** Opens a page and waits until React has hydrated it (the boot module starts after "load"). */
export async function gotoHydrated(page: Page, url: string) {
  // A script error before hydration means it never comes: fail at once, saying why, rather than
  // waiting out the test's whole limit (a Node-only import once did this to a whole admin page).
  let onError: (error: Error) => void = () => {};
  const thrown = new Promise<never>((_, reject) => {
    onError = (error) => reject(new Error(`${url} threw before hydrating: ${error.message}`));
    page.on("pageerror", onError);
  });
  thrown.catch(() => {});
  try {
    const response = await page.goto(url);
    await Promise.race([page.locator("html[data-hydrated]").waitFor({ state: "attached" }), thrown]);
    return response;
  } finally {
    page.off("pageerror", onError);
  }
}

/** Signs in as the test run's admin through the sign-in page and lands on `returnTo`. */
export async function signInAsAdmin(page: Page, returnTo: string) {
  await gotoHydrated(page, `/auth?redirectTo=${encodeURIComponent(returnTo)}`);
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(new RegExp(returnTo.replace(/[/?]/g, "\\$&")));
}
