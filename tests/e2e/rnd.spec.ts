import { expect, gotoHydrated, randomMobile, signInAsAdmin, test } from "../support/fixtures";
import { expectAxeClean } from "../support/axe";

test("an admin imports a Reassigned Numbers results file: the report names the bad lines, a 'yes' lapses the consent and shows on the certificate", async ({ page, request }) => {
  const clickId = `click-rnd-${Date.now()}`;
  const phone = randomMobile();
  const national = phone.replace(/\D/g, "");
  const optIn = await request.post("/api/phone-optin", { data: { firstName: "Paul", lastName: "Revere", phone, clickId, smsConsent: true, termsConsent: true } });
  expect(optIn.ok()).toBe(true);

  await signInAsAdmin(page, "/admin/rnd");
  await gotoHydrated(page, "/admin/rnd");
  await expect(page.getByRole("heading", { level: 1, name: "Reassigned Numbers Database" })).toBeVisible();
  await expect(page.getByTestId("rnd-mode")).toContainText("No query API is configured");
  await expectAxeClean(page);
  // The bulk upload file: a CSV with its header (a consent from today is not due for an answer yet).
  const upload = await page.request.get("/admin/rnd/upload.csv");
  expect(upload.headers()["content-type"]).toContain("text/csv");
  expect((await upload.text()).split("\r\n")[0]).toBe("phone_number,date");
  expect(await upload.text()).not.toContain(national);

  const today = new Date().toISOString().slice(0, 10);
  await page.getByLabel(/Results file from the RND/).setInputFiles({
    name: "rnd-results.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`Phone Number,Date,Result\n${national},${today},yes\n12345,${today},no\n`),
  });
  await page.getByRole("button", { name: "Import results" }).click();
  await expect(page.getByText(/1 answers recorded \(1 yes, 0 no, 0 no data\); 1 consents lapsed; 1 lines refused/)).toBeVisible();
  const refused = page.getByRole("region", { name: "Refused lines" });
  await expect(refused).toContainText("not a 10-digit US number");
  await expectAxeClean(page);

  // The consent lapsed, with the answer as evidence on the person's certificate.
  await page.goto(`/admin/subscribers?q=${clickId}`);
  const row = page.locator("tbody tr").filter({ hasText: "Paul Revere" });
  await expect(row).toContainText("lapsed");
  await row.getByRole("link", { name: "Certificate" }).click();
  await expect(page.getByRole("heading", { name: "Reassigned Numbers Database answers" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Reassigned Numbers Database answers" })).toContainText("yes: disconnected since that date");
  await expect(page.getByRole("heading", { name: /Consent lapsed: number reassigned/ })).toBeVisible();
  await expectAxeClean(page);
});
