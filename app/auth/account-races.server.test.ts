import { and, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { user } from "~/db/schema";
import { parseEnv } from "~/http/env.server";
import { useTestDatabase } from "../../tests/support/test-db";
import { selectTexts, texts } from "../../tests/support/texts";
import { raceAgainstUncommitted, useSecondHandle } from "../../tests/support/races";
import { createAuth } from "./auth.server";
import { createOrPromoteAdmin } from "./admin-account.server";

/**
 * Accounts written by two processes at once, the race made certain with another process's
 * transaction that has written the row but not committed (PostgreSQL only: the embedded database
 * runs one transaction at a time, so there the checks always see the other's row).
 */
describe("accounts raced by another process, on postgres", () => {
  const database = useTestDatabase("postgres");
  const other = useSecondHandle(database);
  const auth = () => createAuth({ db: database.db, env: parseEnv({ NODE_ENV: "test" }), secret: "account-races-test-secret-0123456789abcdef", siteName: "Patriot Investor" });
  const account = (email: string) => ({ id: `raced-${email}`, email, name: "raced", emailVerified: false, createdAt: new Date(), updatedAt: new Date() });

  let ip = 0;
  /** A request through better-auth's whole HTTP pipeline, each from its own address (its rate limits stay out of the way). */
  const call = async (path: string, body: Record<string, unknown>, cookie?: string) => {
    const headers = new Headers({ "content-type": "application/json", origin: "http://localhost:3000", "x-forwarded-for": `198.51.100.${++ip}` });
    if (cookie) headers.set("cookie", cookie);
    const response = await auth().handler(new Request(`http://localhost:3000/api/auth${path}`, { method: "POST", headers, body: JSON.stringify(body) }));
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> | null, cookie: response.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ") };
  };

  it("a sign-up for an address another process is adding answers as a sign-up for a known address does", async () => {
    const { db } = database;
    const signUp = (email: string) => call("/sign-up/email", { email, password: "Concord-Bridge-1775!", name: "reader" });
    expect((await signUp("known@example.com")).status).toBe(200);
    const known = await signUp("known@example.com");
    const raced = await raceAgainstUncommitted(db, other.db, (tx) => tx.insert(user).values(account("raced@example.com")), () => signUp("raced@example.com"));
    expect(raced.status).toBe(known.status);
    expect(raced.body).toMatchObject({ token: null, user: { email: "raced@example.com", emailVerified: false } });
    expect(Object.keys(raced.body!)).toEqual(Object.keys(known.body!));
    expect(await db.select().from(user).where(eq(user.email, "raced@example.com"))).toMatchObject([{ id: "raced-raced@example.com" }]);
  });

  it("a phone number another account confirms at the same moment is refused as a number already taken", async () => {
    const { db } = database;
    const signedIn = async (email: string) => {
      expect((await call("/sign-up/email", { email, password: "Concord-Bridge-1775!", name: "reader" })).status).toBe(200);
      await db.update(user).set({ emailVerified: true }).where(eq(user.email, email));
      const session = await call("/sign-in/email", { email, password: "Concord-Bridge-1775!" });
      expect(session.status).toBe(200);
      return session.cookie;
    };
    const codeFor = async (phoneNumber: string, cookie: string) => {
      expect((await call("/phone-number/send-otp", { phoneNumber }, cookie)).status).toBe(200);
      const [text] = await selectTexts(db).where(and(eq(texts.toPhone, phoneNumber), eq(texts.kind, "verification_code"))).orderBy(desc(texts.id)).limit(1);
      return /\b(\d{6})\b/.exec(text!.body ?? "")![1]!;
    };
    const phoneNumber = "+12124563201";
    const first = await signedIn("first-phone@example.com");
    const second = await signedIn("second-phone@example.com");
    const [firstAccount] = await db.select().from(user).where(eq(user.email, "first-phone@example.com"));

    const code = await codeFor(phoneNumber, second);
    const raced = await raceAgainstUncommitted(
      db,
      other.db,
      // The first account's confirmation of the same number, written by the other process and not yet committed.
      (tx) => tx.update(user).set({ phoneNumber, phoneNumberVerified: true }).where(eq(user.id, firstAccount!.id)),
      () => call("/phone-number/verify", { phoneNumber, code, updatePhoneNumber: true }, second),
    );
    // The checked path: the number is now taken, and a fresh code is refused the same way.
    const checked = await call("/phone-number/verify", { phoneNumber, code: await codeFor(phoneNumber, second), updatePhoneNumber: true }, second);
    expect(checked).toMatchObject({ status: 400, body: { code: "PHONE_NUMBER_EXIST" } });
    expect(raced.status).toBe(checked.status);
    expect(raced.body).toEqual(checked.body);
    expect((await db.select().from(user).where(eq(user.email, "second-phone@example.com")))[0]!.phoneNumber).toBeNull();
    expect(first).toContain("session_token=");
  }, 30_000);

  it("an admin created while the same address signs up elsewhere promotes that account", async () => {
    const { db } = database;
    const email = "raced-admin@example.com";
    const result = await raceAgainstUncommitted(
      db,
      other.db,
      (tx) => tx.insert(user).values(account(email)),
      () => createOrPromoteAdmin(db, auth(), { email, password: "Valley-Forge-1777!", actor: "test" }),
    );
    expect(result).toEqual({ ok: true, created: false, email });
    expect(await db.select().from(user).where(eq(user.email, email))).toMatchObject([{ id: `raced-${email}`, role: "admin", emailVerified: true }]);
  });
});
