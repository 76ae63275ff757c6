import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog } from "~/db/schema";
import { AUTHOR_FIELD_MESSAGES as M } from "~/lib/article-texts";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { createAuthor, formatLinks, listAuthors, parseLinks, updateAuthor } from "./authors.server";
import { loadPublishedSnapshot } from "./published.server";

describe("author links", () => {
  it("read one 'Label | https://…' per line and refuse anything else", () => {
    expect(parseLinks("LinkedIn | https://www.linkedin.com/in/jane\n\n  Site | https://jane.example/ ")).toEqual([
      { label: "LinkedIn", url: "https://www.linkedin.com/in/jane" },
      { label: "Site", url: "https://jane.example/" },
    ]);
    expect(formatLinks(parseLinks("A | https://a.example")!)).toBe("A | https://a.example");
    for (const bad of ["https://a.example", "A | http://a.example", "A | javascript:alert(1)", "A | https://a.example | x"]) expect(parseLinks(bad), bad).toBeNull();
  });
});

describe.each(DB_KINDS)("author profiles on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("creates a profile, refuses a taken slug and bad fields, and an update reaches the published snapshot", async () => {
    const { db } = database;
    const created = await createAuthor(db, { input: { name: "Jane Treasury", slug: "jane-treasury", bio: "Writes about bonds.", credentials: "CFA", photo: "", links: "Site | https://jane.example" }, actor: "ed@example.com" });
    expect(created).toMatchObject({ ok: true, author: { slug: "jane-treasury", photo: null, links: [{ label: "Site", url: "https://jane.example" }] } });
    expect(await createAuthor(db, { input: { name: "Other Jane", slug: "jane-treasury" }, actor: "ed@example.com" })).toEqual({ ok: false, code: "invalid", errors: { slug: M.slugTaken } });
    expect(await createAuthor(db, { input: { name: "X", slug: "Bad Slug", photo: "https://elsewhere.example/p.jpg", links: "nope" }, actor: "ed@example.com" })).toMatchObject({
      ok: false,
      errors: { name: M.nameRequired, slug: M.slugFormat, photo: M.photoFormat, links: M.linksFormat },
    });
    expect((await listAuthors(db)).map((author) => author.slug)).toContain("jane-treasury");

    const [caldwell] = (await listAuthors(db)).filter((author) => author.slug === "david-caldwell");
    const updated = await updateAuthor(db, { id: caldwell!.id, input: { name: "David Caldwell", slug: "david-caldwell", credentials: "CFA, 20 years covering fixed income", bio: "Bonds.", links: "" }, actor: "ed@example.com" });
    expect(updated).toMatchObject({ ok: true, author: { credentials: "CFA, 20 years covering fixed income" } });
    const snapshot = await loadPublishedSnapshot(db);
    expect(snapshot.authors.find((author) => author.slug === "david-caldwell")).toMatchObject({ credentials: "CFA, 20 years covering fixed income", bio: "Bonds." });
    // Authors without a published article have no public page.
    expect(snapshot.authors.some((author) => author.slug === "jane-treasury")).toBe(false);
    expect(await db.select().from(auditLog).where(eq(auditLog.action, "author.updated"))).toHaveLength(1);
  });
});
