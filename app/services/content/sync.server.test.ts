import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { authors } from "~/db/schema";
import { currentSnapshot } from "~/content/published";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { createDraft, publishArticle, scheduleArticle } from "./articles.server";
import { startContentSync } from "./sync.server";

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

async function until(probe: () => boolean, timeoutMs = 5_000) {
  const started = Date.now();
  while (!probe()) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
}

describe.each(DB_KINDS)("keeping the published snapshot current on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("loads at start, reloads after a publication, and publishes a scheduled article at its time with no request", async () => {
    const { db } = database;
    const sync = await startContentSync({ db, databaseUrl: database.url, logger: quiet });
    const renders: number[] = [];
    sync.onSnapshot(() => void renders.push(currentSnapshot().articles.length));
    try {
      expect(currentSnapshot().articles).toHaveLength(6);
      const [author] = await db.select().from(authors).where(eq(authors.slug, "rebecca-hale"));
      const fields = {
        title: "Annuities explained for new retirees",
        slug: "annuities-explained",
        excerpt: "What an annuity is, what it costs, and when it makes sense for a retiree's savings.",
        body: "An annuity is a contract.\n\nIt pays an income.",
        category: "Retirement Planning",
        image: "/images/articles/retirement-protection.svg",
        imageAlt: "A couple reading a contract at a kitchen table",
        authorId: author!.id,
      };
      const created = await createDraft(db, { input: fields, actor: "t@example.com" });
      if (!created.ok) throw new Error("no draft");
      await publishArticle(db, { id: created.article.id, input: fields, expectedVersion: 1, actor: "t@example.com" });
      await until(() => currentSnapshot().articles.some((article) => article.slug === "annuities-explained"));

      const later = { ...fields, title: "Scheduled article for the timer", slug: "scheduled-for-the-timer" };
      const draft = await createDraft(db, { input: later, actor: "t@example.com" });
      if (!draft.ok) throw new Error("no draft");
      const at = new Date(Date.now() + 600);
      await scheduleArticle(db, { id: draft.article.id, input: later, expectedVersion: 1, actor: "t@example.com", at });
      expect(currentSnapshot().articles.some((article) => article.slug === "scheduled-for-the-timer")).toBe(false);
      await until(() => currentSnapshot().articles.some((article) => article.slug === "scheduled-for-the-timer"));
      expect(Date.now() - at.getTime()).toBeLessThan(2_000);
      expect(renders.at(-1)).toBe(8);
    } finally {
      await sync.stop();
    }
  });
});
