import { expect, test } from "@playwright/test";
import { PUBLIC_ROUTES } from "../support/public-routes";

test.describe("every route of the spec", () => {
  for (const route of PUBLIC_ROUTES) {
    test(`${route.path} answers 200 with its headline`, async ({ page }) => {
      const response = await page.goto(route.path);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(route.heading);
    });
  }

  for (const path of ["/admin", "/admin/sms"]) {
    test(`${path} sends a visitor without a session to /auth with the return path`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`/auth\\?redirectTo=${encodeURIComponent(path)}$`));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign In");
    });
  }

  for (const path of ["/does-not-exist", "/articles/no-such-article", "/blog/extra/segments", "/admin/no-such-page"]) {
    test(`${path} answers 404 with the not-found view`, async ({ page }) => {
      const warnings: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "warning") warnings.push(message.text());
      });
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Oops! Page not found");
      // Logged once the page has hydrated (after the load event).
      await expect.poll(() => warnings.join("\n")).toContain(path);
      await page.getByRole("link", { name: "Return to Home" }).click();
      await expect(page).toHaveURL(/\/$/);
    });
  }
});
