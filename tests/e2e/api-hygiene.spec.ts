import { expect, randomMobile, test } from "../support/fixtures";

const VALID = (phone: string) => ({ firstName: "Nathan", lastName: "Hale", phone, clickId: "c1", smsConsent: true, termsConsent: true });

test("the opt-in endpoint answers bad input with a clear 4xx, never a 500", async ({ request }) => {
  const badJson = await request.post("/api/phone-optin", { headers: { "Content-Type": "application/json" }, data: Buffer.from('{"firstName":') });
  expect(badJson.status()).toBe(400);
  expect(await badJson.json()).toMatchObject({ success: false, error: "The body is not valid JSON." });

  const tooLarge = await request.post("/api/phone-optin", { headers: { "Content-Type": "application/json" }, data: JSON.stringify({ ...VALID(randomMobile()), pad: "x".repeat(17 * 1024) }) });
  expect(tooLarge.status()).toBe(413);

  const wrongType = await request.post("/api/phone-optin", { headers: { "Content-Type": "text/plain" }, data: Buffer.from(JSON.stringify(VALID(randomMobile()))) });
  expect(wrongType.status()).toBe(415);

  const wrongMethod = await request.get("/api/phone-optin");
  expect(wrongMethod.status()).toBe(405);
  expect(wrongMethod.headers()["allow"]).toBe("POST");
  expect((await request.put("/api/phone-optin", { data: VALID(randomMobile()) })).status()).toBe(405);

  for (const body of [[], "text", 42, null, { firstName: 7, lastName: true, phone: [] }]) {
    const response = await request.post("/api/phone-optin", { headers: { "Content-Type": "application/json" }, data: Buffer.from(JSON.stringify(body)) });
    expect(response.status(), JSON.stringify(body)).toBe(400);
  }

  const missing = await request.post("/api/phone-optin", { data: { firstName: "Nathan", lastName: "", phone: "" } });
  expect(missing.status()).toBe(400);
  expect(await missing.json()).toEqual({ success: false, dnc: false, error: "Please fill in your first name, last name, and phone number." });

  const nul = await request.post("/api/phone-optin", { data: { ...VALID(randomMobile()), firstName: "Na\u0000than" } });
  expect(nul.status()).toBe(400);
});

test("the opt-in endpoint limits each phone number and says when to come back", async ({ request }) => {
  // One address may carry hundreds of people (carrier-grade NAT); one number repeated is a script.
  const phone = randomMobile();
  const statuses: number[] = [];
  let retryAfter: string | undefined;
  for (let i = 0; i < 7; i++) {
    const response = await request.post("/api/phone-optin", { data: VALID(phone) });
    statuses.push(response.status());
    if (response.status() === 429) retryAfter = response.headers()["retry-after"];
  }
  expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  expect(Number(retryAfter)).toBeGreaterThan(0);
  expect(Number(retryAfter)).toBeLessThanOrEqual(600);
});

test("form posts over the size limit get 413 and wrong content types 415", async ({ request }) => {
  const big = await request.post("/contact", { form: { name: "A", email: "a@example.com", subject: "s", message: "x".repeat(20 * 1024) } });
  expect(big.status()).toBe(413);
  const json = await request.post("/contact", { data: { name: "A" } });
  expect(json.status()).toBe(415);
});
