import { randomInt } from "node:crypto";
import { E2E_BASE_URL, E2E_TWILIO } from "../support/e2e-env";
import { expect, gotoHydrated, randomIp, randomMobile, test, signInAsAdmin } from "../support/fixtures";
import type { SentMessage } from "../support/twilio-stand-in";
import { expectAxeClean } from "../support/axe";

test.describe.configure({ mode: "default" });

/** The alert texts (not the welcome) the Twilio stand-in received for a number. */
async function textsTo(e164: string) {
  const all = (await (await fetch(`${E2E_TWILIO.url}/__messages`)).json()) as SentMessage[];
  return all.filter((message) => message.to === e164 && message.body.includes("gold closed"));
}

const e164 = (phone: string) => `+1${phone.replace(/\D/g, "")}`;

test("an admin composes an alert, sees the reach, sends a test, confirms the count and follows the results", async ({ page, request }) => {
  test.setTimeout(120_000);
  const cohort = `alert${randomInt(1e9)}`;
  const phones = [randomMobile(), randomMobile(), randomMobile()];
  for (const [i, phone] of phones.entries()) {
    const answer = await request.post("/api/phone-optin", {
      data: { firstName: "Paul", lastName: `Revere${i}`, phone, clickId: `${cohort}-${i}`, smsConsent: true, termsConsent: true },
      headers: { "X-Forwarded-For": randomIp() },
    });
    expect(answer.ok()).toBe(true);
  }

  await signInAsAdmin(page, "/admin/alerts");
  // Again without ?notice=signedIn: axe would catch the notice mid-fade.
  await gotoHydrated(page, "/admin/alerts");
  await expect(page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Alerts" })).toHaveAttribute("aria-current", "page");
  await expectAxeClean(page, "/admin/alerts");
  await page.getByRole("link", { name: "New alert" }).click();
  await expect(page.getByRole("heading", { name: "New market alert" })).toBeVisible();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });

  // The counter counts the short link, not the long URL.
  const link = `https://markets.example.com/gold/${"record-high-".repeat(6)}today`;
  const message = `Patriot Investor: gold closed at a record. ${link} Reply STOP to opt out`;
  await page.getByLabel("Name (staff only)").fill(`Gold record ${cohort}`);
  await page.getByLabel("Message").fill(message);
  const sentLength = message.length - link.length + `${E2E_BASE_URL}/l/xxxxxxx`.length;
  await expect(page.getByTestId("char-count")).toHaveText(String(sentLength));
  await expect(page.getByTestId("segment-count")).toHaveText("1");
  await expect(page.getByTestId("sms-warnings")).toContainText("short links");
  await page.getByLabel("Message").fill("Gold closed at a record.");
  await expect(page.getByTestId("sms-warnings")).toContainText("Reply STOP");
  await expect(page.getByTestId("sms-warnings")).toContainText("Patriot Investor");
  await page.getByLabel("Message").fill(message);

  // The reach follows the filters.
  await page.getByLabel("Click id (sub2)").fill(cohort);
  await page.getByLabel("Click id match").selectOption("prefix");
  await expect(page.getByTestId("reach-count")).toHaveText("3");
  await page.getByLabel("Click id (sub2)").fill(`${cohort}-1`);
  await expect(page.getByTestId("reach-count")).toHaveText("1");
  await page.getByLabel("Click id (sub2)").fill(cohort);
  await expect(page.getByTestId("reach-count")).toHaveText("3");
  await expect(page.getByTestId("cost")).toHaveText("$0.02");
  await expectAxeClean(page, "/admin/alerts/new");

  await page.getByRole("button", { name: "Create draft" }).click();
  await expect(page).toHaveURL(/\/admin\/alerts\/[0-9a-f-]{36}\?saved=1$/);
  const campaignUrl = page.url().replace(/\?.*$/, "");
  await expect(page.getByRole("heading", { name: `Alert: Gold record ${cohort}` })).toBeVisible();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });

  // A test text to a staff phone, with a real short link.
  const staff = randomMobile();
  await page.getByLabel("Staff phone").fill(staff);
  await page.getByRole("button", { name: "Send test" }).click();
  await expect.poll(async () => (await textsTo(e164(staff))).length).toBe(1);
  const [testText] = await textsTo(e164(staff));
  expect(testText!.body).toMatch(new RegExp(`^Patriot Investor: gold closed at a record\\. ${E2E_BASE_URL}/l/[A-Za-z0-9]{7} Reply STOP to opt out$`));

  // More than ALERT_CONFIRM_ABOVE (2 here) recipients: the count must be typed.
  await page.getByLabel(/Type the number of recipients \(3\)/).fill("30");
  await page.getByRole("button", { name: "Send now" }).click();
  await expect(page.getByText("Type the number of recipients (3) to confirm.").first()).toBeVisible();
  await page.getByLabel(/Type the number of recipients \(3\)/).fill("3");
  await page.getByRole("button", { name: "Send now" }).click();
  await expect(page.getByTestId("campaign-status")).toHaveText(/Sending|Completed/);

  // Results update by themselves while it sends.
  await expect(page.getByTestId("stat-sent")).toHaveText("3", { timeout: 20_000 });
  await expect(page.getByTestId("stat-planned")).toHaveText("3");
  for (const phone of phones) expect(await textsTo(e164(phone))).toHaveLength(1);
  const code = /\/l\/([A-Za-z0-9]{7})/.exec((await textsTo(e164(phones[0]!)))[0]!.body)![1]!;
  expect(code).toBe(/\/l\/([A-Za-z0-9]{7})/.exec(testText!.body)![1]);

  // The link: a 302 to the stored URL for everyone; a person's tap (Safari sends its fetch headers) is
  // a click, a preview fetcher and a script borrowing Safari's name are machines' fetches, shown apart.
  const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
  const tap = { "User-Agent": iphone, "Accept-Language": "en-US,en;q=0.9", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document", "Sec-Fetch-Site": "none" };
  const click = await request.get(`/l/${code}`, { maxRedirects: 0, headers: tap });
  expect(click.status()).toBe(302);
  expect(click.headers().location).toBe(link);
  const preview = await request.get(`/l/${code}`, { maxRedirects: 0, headers: { "User-Agent": "facebookexternalhit/1.1 Facebot Twitterbot/1.0" } });
  expect(preview.status()).toBe(302);
  expect((await request.get(`/l/${code}`, { maxRedirects: 0, headers: { "User-Agent": iphone } })).status()).toBe(302);
  expect((await request.get("/l/Zz9Zz9Zz", { maxRedirects: 0 })).status()).toBe(404);
  // Each request is recorded just after its redirect is answered (decision 151): the results page
  // shows all three once they are written, on a load after that.
  await expect
    .poll(async () => {
      await page.goto(campaignUrl);
      return [await page.getByTestId("stat-clicks").textContent(), await page.getByTestId("stat-machine-fetches").textContent()];
    })
    .toEqual(["1", "2"]);
  await expect(page.getByTestId("stat-clicks")).toHaveText("1");
  await expect(page.getByTestId("stat-clickers")).toHaveText("1");
  await expect(page.getByTestId("stat-machine-fetches")).toHaveText("2");
  await expect(page.getByTestId("machine-reasons")).toContainText("Link preview (messaging and social apps)");
  await expect(page.getByTestId("machine-reasons")).toContainText("Browser name without a browser’s headers");
  await expect(page.getByTestId("campaign-status")).toHaveText("Completed");
  await expectAxeClean(page, "results");
  // The same counts among the e-mail and SMS links of /admin/analytics, by the alert's name.
  await page.goto("/admin/analytics");
  const onDashboard = page.getByTestId("analytics-linkClicks").locator("tbody tr").filter({ hasText: `Gold record ${cohort}` });
  await expect(onDashboard.locator("td")).toHaveText(["SMS", `Gold record ${cohort}`, "1", "1", "2"]);

  expect((await page.request.get("/admin/alerts/00000000-0000-4000-8000-000000000000/recipients.csv")).status()).toBe(404);
  expect((await page.request.get("/admin/alerts/not-an-id")).status()).toBe(404);
  expect((await page.request.get("/admin/alerts/reach?states=XX")).status()).toBe(400);
  expect((await request.get("/admin/alerts/reach", { maxRedirects: 0 })).status()).toBeGreaterThanOrEqual(300);
  const csv = await page.request.get(`${campaignUrl}/recipients.csv`);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const lines = (await csv.text()).trim().split("\r\n");
  expect(lines[0]).toBe("phone,state,reason,error,attempts,provider_status,sent_at");
  // Formula-safe: a leading "+" is quoted the way the subscribers export does it.
  expect(lines.slice(1).map((line) => line.split(",")[0]).sort()).toEqual(phones.map((phone) => `'${e164(phone)}`).sort());
  expect(lines.slice(1).every((line) => line.split(",")[1] === "sent")).toBe(true);
});

test("an alert scheduled for a time in a named zone shows that time and can go back to draft", async ({ page }) => {
  await signInAsAdmin(page, "/admin/alerts/new");
  await gotoHydrated(page, "/admin/alerts/new");
  await page.getByLabel("Name (staff only)").fill("Scheduled alert");
  await page.getByLabel("Message").fill("Patriot Investor: markets open higher. Reply STOP to opt out");
  // A click id nobody has: nothing can be sent, so scheduling is refused with a clear message.
  await page.getByLabel("Click id (sub2)").fill(`nobody-${randomInt(1e9)}`);
  await expect(page.getByTestId("reach-count")).toHaveText("0");
  await page.getByRole("button", { name: "Create draft" }).click();
  await expect(page).toHaveURL(/\/admin\/alerts\/[0-9a-f-]{36}\?saved=1$/);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("At a time").check();
  await page.getByLabel("Date and time").fill("2031-07-04T09:30");
  await page.getByLabel("Time zone").selectOption("America/Los_Angeles");
  await page.getByRole("button", { name: "Schedule" }).click();
  await expect(page.getByText("Nobody can be reached with these filters.").first()).toBeVisible();

  // Everyone as the audience: more than ALERT_CONFIRM_ABOVE (2 here), so the count is typed.
  await page.getByLabel("Click id (sub2)").fill("");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("The alert is saved as a draft.").first()).toBeVisible();
  const shown = await page.locator('input[name="shownCount"]').inputValue();
  await page.getByLabel("At a time").check();
  await page.getByLabel("Date and time").fill("2031-07-04T09:30");
  await page.getByLabel("Time zone").selectOption("America/Los_Angeles");
  await page.getByLabel(/Type the number of recipients/).fill(shown);
  await page.getByRole("button", { name: "Schedule" }).click();
  await expect(page.getByTestId("campaign-status")).toHaveText("Scheduled");
  await expect(page.getByText("starts Jul 4, 2031, 9:30 AM PDT")).toBeVisible();
  await page.getByRole("button", { name: "Back to draft" }).click();
  await expect(page.getByRole("button", { name: "Save draft" })).toBeVisible();
});
