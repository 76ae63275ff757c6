import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, dncImports, dncNumbers } from "~/db/schema";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { changeInternalDnc, dncStatus } from "./dnc.server";

describe.each(DB_KINDS)("the admin's Do-Not-Call list on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("warns when there is no registry data, and when it is older than 31 days", async () => {
    const { db } = database;
    expect(await dncStatus(db)).toMatchObject({ dataDate: null, stale: true });
    await db.insert(dncImports).values({ fileName: "a.txt", sha256: "x", mode: "add", dataDate: "2026-10-01", lines: 1, changed: 1, badLines: 0 });
    expect(await dncStatus(db, new Date("2026-11-01T12:00:00Z"))).toMatchObject({ ageDays: 31, stale: false });
    expect(await dncStatus(db, new Date("2026-11-02T12:00:00Z"))).toMatchObject({ ageDays: 32, stale: true });
  });

  it("adds and removes one number, with an audit entry each time, and refuses a bad number", async () => {
    const { db } = database;
    expect(await changeInternalDnc(db, { phone: "(212) 456-7001", add: true, actor: "ann@example.com" })).toEqual({ ok: true, e164: "+12124567001" });
    expect(await db.select().from(dncNumbers).where(eq(dncNumbers.phone, "2124567001"))).toMatchObject([{ source: "internal" }]);
    expect((await dncStatus(db)).counts.internal).toBe(1);
    await changeInternalDnc(db, { phone: "212-456-7001", add: false, actor: "ann@example.com" });
    expect(await db.select().from(dncNumbers).where(eq(dncNumbers.phone, "2124567001"))).toHaveLength(0);
    expect((await db.select().from(auditLog).where(eq(auditLog.entity, "dnc_numbers"))).map((row) => row.action)).toEqual(["dnc.add", "dnc.remove"]);
    expect(await changeInternalDnc(db, { phone: "555-0100", add: true, actor: "ann@example.com" })).toMatchObject({ ok: false });
  });
});
