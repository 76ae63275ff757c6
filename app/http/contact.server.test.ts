import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The action uses the process's database: an in-memory one for this file.
vi.hoisted(() => {
  process.env.DATA_DIR = "memory";
});

const { contactAction } = await import("./contact.server");
const { closeDatabase, getDb } = await import("~/db/database.server");
const { contactMessages } = await import("~/db/schema");

function post(fields: Record<string, string>, ip = "198.51.100.20") {
  return new Request("http://localhost/contact", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": ip },
    body: new URLSearchParams(fields),
  });
}

const MESSAGE = { name: "Abigail Adams", email: "abigail@example.com", subject: "Hello", message: "A question about bonds." };

describe("the contact form action", () => {
  beforeAll(async () => {
    await getDb();
  }, 60_000);
  afterAll(async () => {
    await closeDatabase();
  });

  it("stores a valid message and confirms", async () => {
    const response = await contactAction(post(MESSAGE));
    expect(response.init?.status).toBe(200);
    expect(response.data).toMatchObject({ ok: true, notice: { title: "Message Sent" } });
    const rows = await (await getDb()).select().from(contactMessages);
    expect(rows.map((row) => row.subject)).toContain("Hello");
  });

  it("answers a bot that fills the honeypot like a person, and stores nothing", async () => {
    const db = await getDb();
    const before = (await db.select().from(contactMessages)).length;
    const response = await contactAction(post({ ...MESSAGE, subject: "Bot", website: "http://spam.example" }, "198.51.100.21"));
    expect(response.data).toMatchObject({ ok: true, notice: { title: "Message Sent" } });
    expect((await db.select().from(contactMessages)).length).toBe(before);
  });

  it("says which required fields are missing and keeps what was typed", async () => {
    const response = await contactAction(post({ name: "Abigail", email: "not-an-email", subject: "", message: "" }, "198.51.100.22"));
    expect(response.init?.status).toBe(400);
    expect(response.data.fieldErrors).toMatchObject({
      email: "Please enter a valid email address.",
      subject: "Subject is required.",
      message: "Message is required.",
    });
    expect(response.data.values).toMatchObject({ name: "Abigail", email: "not-an-email" });
  });

  it("limits one address to 5 messages in 10 minutes", async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await contactAction(post(MESSAGE, "198.51.100.23"))).init?.status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
