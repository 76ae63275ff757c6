import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { authors } from "~/db/schema";
import { DB_KINDS, useTestDatabase } from "../../tests/support/test-db";
import { isUniqueViolation, refuseUniqueViolation } from "./unique-violation";

describe.each(DB_KINDS)("unique violations on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("are recognised by constraint name through drizzle's wrapper, in and out of a transaction", async () => {
    const { db } = database;
    await db.insert(authors).values({ slug: "same-slug", name: "First" });
    const caught: unknown[] = [];
    await db.insert(authors).values({ slug: "same-slug", name: "Second" }).catch((error: unknown) => caught.push(error));
    await db
      .transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO authors (slug, name) VALUES ('same-slug', 'Third')`);
      })
      .catch((error: unknown) => caught.push(error));
    expect(caught).toHaveLength(2);
    for (const error of caught) {
      expect(isUniqueViolation(error, "authors_slug_unique")).toBe(true);
      expect(isUniqueViolation(error, "articles_slug_unique")).toBe(false);
    }
  });

  it("become the given answer; other errors pass through", async () => {
    const { db } = database;
    const refused = await refuseUniqueViolation(() => db.insert(authors).values({ slug: "same-slug", name: "Fourth" }), "authors_slug_unique", () => "taken" as const);
    expect(refused).toBe("taken");
    await expect(refuseUniqueViolation(() => db.execute(sql`SELECT * FROM no_such_table`), "authors_slug_unique", () => "taken")).rejects.toThrow();
    await expect(refuseUniqueViolation(() => db.insert(authors).values({ slug: "same-slug", name: "Fifth" }), "articles_slug_unique", () => "taken")).rejects.toThrow();
  });
});

describe("isUniqueViolation", () => {
  it("needs both the code and the name", () => {
    expect(isUniqueViolation(Object.assign(new Error("x"), { code: "23505", constraint: "a" }), "a")).toBe(true);
    expect(isUniqueViolation(Object.assign(new Error("x"), { code: "23503", constraint: "a" }), "a")).toBe(false);
    expect(isUniqueViolation(new Error("x", { cause: new Error("y", { cause: Object.assign(new Error("z"), { code: "23505", constraint: "a" }) }) }), "a")).toBe(true);
    expect(isUniqueViolation("23505", "a")).toBe(false);
    expect(isUniqueViolation(null, "a")).toBe(false);
  });
});
