import { expect, test } from "@playwright/test";
import { expectAxeClean } from "../support/axe";
import { PUBLIC_ROUTES } from "../support/public-routes";

const PAGES = [...PUBLIC_ROUTES.map((route) => route.path), "/blog?category=precious-metals", "/does-not-exist"];

for (const path of PAGES) {
  test(`${path}: no console errors and no axe violations`, async ({ page }) => {
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" && !(path === "/does-not-exist" && message.text().includes("404"))) {
        problems.push(message.text());
      }
    });
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    await expectAxeClean(page);
    expect(problems).toEqual([]);
  });
}

test("the skip link moves focus to the main content", async ({ page }) => {
  await page.goto("/about");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to main content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#main$/);
});

test("the document language is en-US", async ({ page }) => {
  await page.goto("/home");
  await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
});
