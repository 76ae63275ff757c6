import { writeFileSync } from "node:fs";
import { expectAxeClean } from "../support/axe";
import { E2E_ADMIN } from "../support/e2e-env";
import { expect, gotoHydrated, test } from "../support/fixtures";

const LINES = 100_000;

test("an admin uploads a 100,000-line registry file: progress while it imports, then the list and the report", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await gotoHydrated(page, "/auth?redirectTo=%2Fadmin%2Fdnc");
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/dnc/);
  await gotoHydrated(page, "/admin/dnc");
  const federal = page.getByTestId("dnc-federal");
  const before = Number((await federal.textContent())!.replace(/,/g, ""));

  // Area code 717, exchanges 200-209: numbers no other test uses.
  const lines = Array.from({ length: LINES }, (_, i) => `717,${200 + Math.floor(i / 10_000)}${String(i % 10_000).padStart(4, "0")}`);
  lines.splice(500, 0, "this is not a number");
  const file = testInfo.outputPath("area-717.txt");
  writeFileSync(file, `${lines.join("\n")}\n`);

  await page.getByLabel("Date the data was downloaded").fill(new Date().toISOString().slice(0, 10));
  await page.getByLabel("Registry file").setInputFiles(file);
  await page.getByRole("button", { name: "Upload and import" }).click();
  await expect(page).toHaveURL(/\/admin\/dnc\?upload=\d+/);
  await expect(page.getByRole("progressbar").or(page.getByTestId("dnc-upload-done"))).toBeVisible();
  const sawProgress = await page.getByRole("progressbar").isVisible();

  await expect(page.getByTestId("dnc-upload-done")).toContainText(`${(LINES + 1).toLocaleString("en-US")} lines, ${LINES.toLocaleString("en-US")} numbers added, 1 bad lines`, { timeout: 90_000 });
  await expect(federal).toHaveText((before + LINES).toLocaleString("en-US"));
  await page.getByText("Bad lines (1)").click();
  await expect(page.getByText('line 501: "this is not a number"')).toBeVisible();
  expect(sawProgress, "the progress bar was shown while the file was imported").toBe(true);

  await expectAxeClean(page);
});

test("an upload without a file or with a date in the future is refused with a reason", async ({ page }) => {
  await gotoHydrated(page, "/auth?redirectTo=%2Fadmin%2Fdnc");
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/dnc/);
  const origin = new URL(page.url()).origin;
  const post = (multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }>) =>
    page.request.post("/admin/dnc", { multipart, headers: { Origin: origin } });
  const noFile = await post({ dataDate: "2026-11-20", mode: "add" });
  expect(noFile.status()).toBe(400);
  expect(await noFile.text()).toContain("Choose the registry file");
  const future = await post({ dataDate: "2999-01-01", mode: "add", file: { name: "a.txt", mimeType: "text/plain", buffer: Buffer.from("212,4567890\n") } });
  expect(future.status()).toBe(400);
  expect(await future.text()).toContain("not in the future");
});
