import type { APIRequestContext, Page } from "@playwright/test";
import sharp from "sharp";
import { expectAxeClean } from "../support/axe";
import { E2E_ADMIN, E2E_MAIL_URL } from "../support/e2e-env";
import { expect, gotoHydrated, test } from "../support/fixtures";
import type { CapturedMail } from "../support/smtp-capture";

async function signIn(page: Page, email: string, password: string, returnTo: string) {
  await gotoHydrated(page, `/auth?redirectTo=${encodeURIComponent(returnTo)}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(new RegExp(returnTo.replace(/[/?]/g, "\\$&")));
}

async function mailsTo(request: APIRequestContext, email: string) {
  return (await (await request.get(`${E2E_MAIL_URL}?to=${encodeURIComponent(email)}`)).json()) as CapturedMail[];
}

test("an admin makes a reader an editor on the People page; the editor then sees only the desk", async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  const email = `editor-${Date.now()}@example.com`;
  await gotoHydrated(page, "/auth?tab=signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("Desk-Writer-Pass-9");
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect.poll(async () => (await mailsTo(request, email)).length, { timeout: 15_000 }).toBe(1);
  await page.goto((await mailsTo(request, email))[0]!.links.find((link) => link.includes("verify-email"))!);
  // A reader: no admin area.
  expect((await page.goto("/admin/articles"))?.status()).toBe(403);

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/people");
  await gotoHydrated(admin, `/admin/people?q=${encodeURIComponent(email)}`);
  await expect(admin.getByRole("cell", { name: "Reader", exact: true })).toBeVisible();
  await expectAxeClean(admin);
  await admin.getByLabel(`Role of ${email}`, { exact: true }).selectOption("editor");
  await admin.getByRole("button", { name: `Change the role of ${email}` }).click();
  await expect(admin.getByText(`${email} is now editor.`)).toBeVisible();
  await expect(admin.getByRole("cell", { name: "Editor", exact: true })).toBeVisible();
  // (The last-admin rule is proven in app/services/admin/people.server.test.ts: other browser tests
  // promote admins of their own, so here the shared admin is not the last one.)
  await adminContext.close();

  // The same session, next request: the staff home leads an editor to the desk, whose navigation
  // offers only what an editor may use; admin-only pages answer 403 with a clear reason.
  await gotoHydrated(page, "/admin");
  await expect(page).toHaveURL(/\/admin\/articles$/);
  const nav = page.getByRole("navigation", { name: "Admin" });
  await expect(nav.getByRole("link")).toHaveText(["Articles", "Authors", "Images", "Redirects", "Analytics", "Security"]);
  await expect(page.getByRole("banner").getByRole("link", { name: "Admin" }).first()).toBeVisible();
  for (const path of ["/admin/sms", "/admin/people", "/admin/subscribers"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(403);
    await expect(page.getByText("This page is for admins only.", { exact: false })).toBeVisible();
  }
  expect((await page.request.get("/admin/subscribers.csv", { maxRedirects: 0 })).status()).toBe(403);
});

test("the article editor: typing updates the preview, an uploaded image is inserted as <picture>, autosave keeps the text, axe-clean", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/articles/new");
  const slug = `editor-test-${Date.now()}`;
  await page.getByLabel("Title", { exact: true }).fill("Editor test: the Markdown desk");
  await page.getByLabel(/^Slug/).fill(slug);
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page).toHaveURL(/\/admin\/articles\/[0-9a-f-]{36}\?done=(created|saved)/);
  const editUrl = page.url().split("?")[0]!;
  await gotoHydrated(page, editUrl);

  // The editor replaces the textarea once loaded; its accessible name is the field's label.
  const editor = page.getByRole("textbox", { name: "Body (Markdown)" });
  await expect(page.getByRole("toolbar", { name: "Formatting" })).toBeVisible();
  await editor.click();
  await page.keyboard.type("Gold has held its value for centuries.");
  const preview = page.getByTestId("article-preview");
  await expect(preview.locator(".article-lede p")).toHaveText("Gold has held its value for centuries.");
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter");
  await page.keyboard.type("Central banks keep buying it.");
  await page.getByRole("button", { name: "Table" }).click();
  await expect(preview.locator(".prose-article table")).toBeVisible();
  await expect(preview.locator(".prose-article:not(.article-lede)")).toContainText("Central banks keep buying it.");

  // Ticking "Sponsored" marks the preview's links as the published page will.
  await page.keyboard.press("Control+End");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter");
  await page.keyboard.type("See [the sponsor](https://sponsor.example/offer) for details.");
  const sponsorLink = preview.locator('.prose-article a[href="https://sponsor.example/offer"]');
  await expect(sponsorLink).toBeVisible();
  await expect(sponsorLink).not.toHaveAttribute("rel", /sponsored/);
  await page.getByLabel(/^Sponsored \(paid\) article/).check();
  await expect(sponsorLink).toHaveAttribute("rel", "sponsored noopener");
  await page.getByLabel(/^Sponsored \(paid\) article/).uncheck();
  await expect(sponsorLink).not.toHaveAttribute("rel", /sponsored/);
  await editor.click();
  await page.keyboard.press("Control+End");

  // Image: a file and its alt text, uploaded, inserted as Markdown, previewed as a <picture>.
  await page.getByRole("button", { name: "Image" }).click();
  const png = await sharp({ create: { width: 1000, height: 500, channels: 3, background: "#c9a227" } }).png().toBuffer();
  await page.getByLabel("Image file (at most 15 MB)").setInputFiles({ name: "gold.png", mimeType: "image/png", buffer: png });
  await page.getByLabel("Alt text (what the image shows)").fill("A gold-coloured test banner");
  await page.getByRole("button", { name: "Upload and insert" }).click();
  await expect(editor).toContainText("![A gold-coloured test banner](/media/");
  const picture = preview.locator("picture");
  await expect(picture.locator('source[type="image/avif"]')).toHaveAttribute("srcset", /\/media\/[0-9a-f-]{36}\/480\.avif 480w, .*\/1000\.avif 1000w/);
  await expect(picture.locator("img")).toHaveAttribute("alt", "A gold-coloured test banner");
  await expect(picture.locator("img")).toHaveAttribute("width", "1000");
  await expect.poll(() => picture.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  // Autosave: "Saved at HH:MM" in a polite status, and a reload shows the text.
  const status = page.getByTestId("autosave-status");
  await expect(status).toHaveAttribute("aria-live", "polite");
  await expect(status).toHaveText(/^Saved at \d{2}:\d{2}$/, { timeout: 15_000 });
  await expect(status).not.toHaveText("Saving…");
  await expectAxeClean(page);
  await gotoHydrated(page, editUrl);
  await expect(page.locator('textarea[name="body"]')).toHaveValue(/Gold has held its value[\s\S]*Central banks keep buying it\.[\s\S]*\| Column \| Column \|[\s\S]*!\[A gold-coloured test banner\]\(\/media\//);
  await expect(page.getByRole("textbox", { name: "Body (Markdown)" })).toContainText("Central banks keep buying it.");
});

test("without JavaScript the article body is a plain textarea that saves", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`/auth?redirectTo=${encodeURIComponent("/admin/articles/new")}`);
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/articles\/new/);
  await page.getByLabel("Title", { exact: true }).fill("No-script test: plain body field");
  await page.getByLabel(/^Slug/).fill(`no-script-${Date.now()}`);
  await page.getByLabel("Body (Markdown)").fill("Typed without any script.\n\n| A | B |\n|---|---|\n| 1 | 2 |");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page).toHaveURL(/\/admin\/articles\/[0-9a-f-]{36}\?done=created/);
  await expect(page.getByLabel("Body (Markdown)")).toHaveValue(/Typed without any script\.[\s\S]*\| 1 \| 2 \|/);
  await expect(page.getByRole("toolbar", { name: "Formatting" })).toHaveCount(0);
  await context.close();
});

test("the Images page uploads without JavaScript, refuses a fake image, and its files are served immutable from memory", async ({ browser, page: scripted }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`/auth?redirectTo=${encodeURIComponent("/admin/media")}`);
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/media/);

  await page.getByLabel(/^Image file/).setInputFiles({ name: "photo.jpg", mimeType: "image/jpeg", buffer: Buffer.from("this is text, not a photo\n") });
  await page.getByLabel(/^Alt text/).fill("A photo that is not one");
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("Not an Image", { exact: true })).toBeVisible();

  const jpeg = await sharp({ create: { width: 640, height: 360, channels: 3, background: "#1d3557" } }).jpeg().toBuffer();
  await page.getByLabel(/^Image file/).setInputFiles({ name: "navy.jpg", mimeType: "image/jpeg", buffer: jpeg });
  await page.getByLabel(/^Alt text/).fill("A navy blue test card");
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("Image Uploaded", { exact: true })).toBeVisible();
  const line = (await page.getByText(/^!\[A navy blue test card\]\(\/media\//).first().textContent())!;
  const [, id] = /\/media\/([0-9a-f-]{36})\/640x360/.exec(line)!;
  await context.close();

  // The page with JavaScript: the upload is listed as a <picture>, and the page is axe-clean.
  await signIn(scripted, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/media");
  // Again without ?notice=signedIn: axe would catch the notice mid-fade.
  await gotoHydrated(scripted, "/admin/media");
  await expect(scripted.locator(`picture img[alt="A navy blue test card"]`).first()).toHaveAttribute("src", `/media/${id}/640.jpg`);
  await expectAxeClean(scripted);

  const request = scripted.request;
  const file = await request.get(`/media/${id}/640.webp`);
  expect(file.status()).toBe(200);
  expect(file.headers()).toMatchObject({ "content-type": "image/webp", "cache-control": "public, max-age=31536000, immutable", "x-content-type-options": "nosniff" });
  const etag = file.headers().etag!;
  expect((await request.get(`/media/${id}/640.webp`, { headers: { "If-None-Match": etag } })).status()).toBe(304);
  expect((await request.get(`/media/${id}/480.avif`)).headers()["content-type"]).toBe("image/avif");
  expect((await request.get(`/media/${id}/800.jpg`)).status()).toBe(404);
  expect((await request.get("/media/00000000-0000-4000-8000-000000000000/480.jpg")).status()).toBe(404);
});

test("an uploaded cover image and a body image reach the published article as <picture>, with no JavaScript on the page", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/articles/new");
  const origin = new URL(page.url()).origin;
  const upload = async (alt: string, color: string) => {
    const jpeg = await sharp({ create: { width: 1600, height: 900, channels: 3, background: color } }).jpeg().toBuffer();
    const response = await page.request.post("/admin/media", {
      headers: { Accept: "application/json", Origin: origin },
      multipart: { alt, file: { name: "cover.jpg", mimeType: "image/jpeg", buffer: jpeg } },
    });
    expect(response.status()).toBe(201);
    return ((await response.json()) as { src: string }).src;
  };
  const cover = await upload("A vault of gold bars under lamps", "#8a6d1d");
  const inline = await upload("A chart of the price of gold", "#2a4d69");
  expect(cover).toMatch(/^\/media\/[0-9a-f-]{36}\/1600x900$/);

  const slug = `picture-test-${Date.now().toString(36)}`;
  await page.getByLabel("Title", { exact: true }).fill("Uploads on the published page");
  await page.getByLabel(/^Slug/).fill(slug);
  await page.getByLabel(/^Excerpt/).fill("An article whose cover and body images are uploads, rendered as responsive pictures.");
  await page.getByLabel("Body (Markdown)").fill(`Gold is a store of value.\n\n![A chart of the price of gold](${inline})\n\nThe end.`);
  await page.getByLabel("Category").selectOption("Precious Metals");
  await page.getByLabel(/^Cover image \(/).fill(cover);
  await page.getByLabel(/^Cover image description/).fill("A vault of gold bars under lamps");
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/articles\/[0-9a-f-]{36}\?done=published/);

  const reader = await (await browser.newContext()).newPage();
  await expect.poll(async () => (await reader.goto(`/articles/${slug}`))?.status(), { timeout: 5_000 }).toBe(200);
  const coverImg = reader.locator(`picture img[alt="A vault of gold bars under lamps"]`);
  await expect(coverImg).toHaveAttribute("fetchpriority", "high");
  await expect(coverImg).toHaveAttribute("width", "1600");
  await expect(coverImg).toHaveAttribute("srcset", /480\.jpg 480w, .*1600\.jpg 1600w/);
  await expect(reader.locator('picture:has(img[alt="A vault of gold bars under lamps"]) source[type="image/avif"]')).toHaveCount(1);
  const bodyImg = reader.locator(`.prose-article picture img[alt="A chart of the price of gold"]`);
  await expect(bodyImg).toHaveAttribute("loading", "lazy");
  await bodyImg.scrollIntoViewIfNeeded();
  await expect.poll(() => bodyImg.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  expect(await reader.locator("script[src], link[rel=modulepreload]").count()).toBe(0);
  await expectAxeClean(reader);
});

test("autosave from a stale tab is refused with a clear message, and the fresher tab's text is kept", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/articles/new");
  await page.getByLabel("Title", { exact: true }).fill("Two tabs editing one article");
  await page.getByLabel(/^Slug/).fill(`two-tabs-${Date.now().toString(36)}`);
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page).toHaveURL(/\/admin\/articles\/[0-9a-f-]{36}\?done=(created|saved)/);
  const editUrl = page.url().split("?")[0]!;

  // A second tab of the same session opens the same version.
  const other = await page.context().newPage();
  await gotoHydrated(other, editUrl);
  await gotoHydrated(page, editUrl);
  for (const tab of [page, other]) await expect(tab.getByRole("toolbar", { name: "Formatting" })).toBeVisible();

  await page.getByRole("textbox", { name: "Body (Markdown)" }).click();
  await page.keyboard.type("Written in the first tab.");
  await expect(page.getByTestId("autosave-status")).toHaveText(/^Saved at/, { timeout: 15_000 });

  await other.getByRole("textbox", { name: "Body (Markdown)" }).click();
  await other.keyboard.type("Written in the stale tab.");
  await expect(other.getByTestId("autosave-status")).toHaveText("This article was changed elsewhere: reload to see it. Your latest changes are not saved.", { timeout: 15_000 });

  await gotoHydrated(other, editUrl);
  await expect(other.locator('textarea[name="body"]')).toHaveValue("Written in the first tab.");
});

test("autosave waits for a 2 s pause, saves at least every 10 s of steady typing, and saves at once when the tab is hidden", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password, "/admin/articles/new");
  const title = page.getByLabel("Title", { exact: true });
  await title.fill("Autosave timing check");
  await page.getByLabel(/^Slug/).fill(`autosave-timing-${Date.now().toString(36)}`);
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page).toHaveURL(/\/admin\/articles\/[0-9a-f-]{36}\?done=(created|saved)/);
  const editUrl = page.url().split("?")[0]!;

  // The page's timers run on a clock the test moves by hand once the editor is ready.
  await page.clock.install();
  await gotoHydrated(page, editUrl);
  await expect(page.getByRole("toolbar", { name: "Formatting" })).toBeVisible();
  await page.clock.pauseAt(Date.now() + 5_000);
  const saves: string[] = [];
  let answers = 0;
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().endsWith("/autosave")) saves.push(request.postData() ?? "");
  });
  page.on("response", (response) => {
    if (response.request().method() === "POST" && response.url().endsWith("/autosave")) answers++;
  });
  const type = (text: string) => title.press("End").then(() => title.pressSequentially(text));

  // An edit every 1.5 s never leaves a 2 s pause: nothing is saved for 9 s...
  for (let i = 0; i < 6; i++) {
    await type(String(i));
    await page.clock.runFor(1_500);
  }
  expect(saves).toHaveLength(0);
  // ...and the save comes 10 s after the first unsaved edit, typing or not.
  await type("6");
  await page.clock.runFor(1_500);
  await expect.poll(() => answers).toBe(1);
  expect(new URLSearchParams(saves[0]).get("title")).toBe("Autosave timing check0123456");
  await expect(page.getByTestId("autosave-status")).toHaveText(/^Saved at/);

  // One edit, then quiet: saved 2 s later, not before.
  await type("7");
  await page.clock.runFor(1_900);
  expect(saves).toHaveLength(1);
  await page.clock.runFor(200);
  await expect.poll(() => answers).toBe(2);

  // Switching away from the tab (or closing it) saves the last edit at once, no timer needed.
  await type("8");
  await page.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
    document.dispatchEvent(new Event("visibilitychange"));
  });
  await expect.poll(() => answers).toBe(3);
  expect(new URLSearchParams(saves[2]).get("title")).toBe("Autosave timing check012345678");
  await page.clock.resume();
  await gotoHydrated(page, editUrl);
  await expect(title).toHaveValue("Autosave timing check012345678");
});
