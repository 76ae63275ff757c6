import { expect, test, type Page } from "@playwright/test";
import { gotoHydrated } from "../support/fixtures";

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

async function openMenu(page: Page) {
  const menu = page.getByTestId("mobile-menu");
  await expect(menu.getByRole("navigation", { name: "Mobile" })).toBeHidden();
  await page.getByText("Menu", { exact: true }).or(menu.locator("summary")).first().click();
  await expect(menu.getByRole("navigation", { name: "Mobile" })).toBeVisible();
  return menu;
}

test("the desktop navigation is hidden at phone width", async ({ page }) => {
  await page.goto("/home");
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
});

test("opens, closes again, and closes when a link is chosen", async ({ page }) => {
  await gotoHydrated(page, "/home");
  const menu = await openMenu(page);
  await menu.locator("summary").click();
  await expect(menu.getByRole("navigation", { name: "Mobile" })).toBeHidden();

  await openMenu(page);
  await menu.getByRole("link", { name: "CONTACT" }).click();
  await expect(page).toHaveURL(/\/contact$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Contact Us");
  await expect(page.getByTestId("mobile-menu").getByRole("navigation", { name: "Mobile" })).toBeHidden();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("opens and its links work", async ({ page }) => {
    await page.goto("/about");
    const menu = await openMenu(page);
    await menu.getByRole("link", { name: "BLOG" }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.getByTestId("mobile-menu").getByRole("navigation", { name: "Mobile" })).toBeHidden();
  });
});

test("SUBSCRIBE takes the visitor to the sign-up form", async ({ page }) => {
  await page.goto("/about");
  const menu = await openMenu(page);
  await menu.getByRole("link", { name: "SUBSCRIBE" }).click();
  await expect(page).toHaveURL(/\/home#newsletter$/);
  await expect(page.getByRole("heading", { name: "Join Our Newsletter for SMS Market Updates" })).toBeInViewport();
});
