import type { Browser, Page } from "@playwright/test";
import { E2E_ADMIN } from "../support/e2e-env";
import { expect, gotoHydrated, randomIp, test } from "../support/fixtures";
import { ARTICLES } from "../support/public-routes";

/**
 * How much of each visible search field's placeholder is cut: its text measured in the field's
 * own font against the field's content box, and the same text typed in (scrollWidth > clientWidth
 * when it does not fit). 0 when it fits whole.
 */
async function cutPlaceholders(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLInputElement>('input[type="search"]')]
      .filter((input) => input.getClientRects().length > 0)
      .map((input) => {
        const style = getComputedStyle(input);
        const context = document.createElement("canvas").getContext("2d")!;
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        const measured = Math.max(0, Math.ceil(context.measureText(input.placeholder).width - room));
        // Typed in, as plain text: a search field's clear button shows only once it has a value.
        const saved = input.value;
        input.type = "text";
        input.value = input.placeholder;
        const typed = Math.max(0, input.scrollWidth - input.clientWidth);
        input.type = "search";
        input.value = saved;
        return { id: input.id, placeholder: input.placeholder, measured, typed };
      }),
  );
}

async function signedInContext(browser: Browser, width: number) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, extraHTTPHeaders: { "X-Forwarded-For": randomIp() } });
  const page = await context.newPage();
  await gotoHydrated(page, "/auth?redirectTo=%2Fabout");
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/about/);
  return { page, close: () => context.close() };
}

for (const width of [390, 768, 1024, 1280, 1366, 1920]) {
  for (const who of ["a visitor", "a signed-in admin"] as const) {
    test(`the search fields show their whole placeholder at ${width} px for ${who}`, async ({ browser }) => {
      const { page, close } =
        who === "a visitor"
          ? await (async () => {
              const context = await browser.newContext({ viewport: { width, height: 900 }, extraHTTPHeaders: { "X-Forwarded-For": randomIp() } });
              return { page: await context.newPage(), close: () => context.close() };
            })()
          : await signedInContext(browser, width);
      // The home page and an article page carry the same top bar as /about (issue 32: cut at 1366 px there).
      for (const path of ["/about", "/blog", "/", `/articles/${ARTICLES[0]!.slug}`]) {
        await page.goto(path);
        // Where the bar shows the menu button (phones; tablets, and small laptops when signed in), the field is in the menu.
        const menuButton = page.getByTestId("mobile-menu").locator("summary");
        expect(await menuButton.isVisible(), path).toBe(width < (who === "a visitor" ? 1024 : 1280));
        if (await menuButton.isVisible()) await menuButton.click();
        const fields = await cutPlaceholders(page);
        expect(fields.length, path).toBe(path === "/blog" ? 2 : 1);
        for (const field of fields) {
          expect(field.placeholder, `${path} #${field.id}`).toBe("Search articles");
          expect({ measured: field.measured, typed: field.typed }, `${path} #${field.id}`).toEqual({ measured: 0, typed: 0 });
        }
        // Nothing in the bar is pushed off the screen to make room.
        expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), path).toBeLessThanOrEqual(0);
      }
      await close();
    });
  }
}
