import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, campaigns, newsletterIssues, user } from "~/db/schema";
import { commandLineActor, describeChange } from "~/lib/audit-texts";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { createDraft } from "../content/articles.server";
import { createAuthor } from "../content/authors.server";
import { changeInternalDnc } from "../dnc/dnc.server";
import { saveIssueDraft } from "../newsletter/issues.server";
import { AudienceSchema } from "../sending/audience.server";
import { saveDraft } from "../sending/campaigns.server";
import { changeRole } from "./people.server";
import { loadRecentChanges } from "./recent-changes.server";

const ADMIN = "boss@example.com";

describe.each(DB_KINDS)("the staff home's recent changes on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("names and links what each change was made to, newest first, through the services that write them", async () => {
    const { db } = database;
    const author = await createAuthor(db, { input: { name: "Jane Treasury", slug: "jane-treasury" }, actor: ADMIN });
    if (!author.ok) throw new Error("author not created");
    const article = await createDraft(db, { input: { title: "Gold in a strong-dollar year", slug: "gold-strong-dollar", authorId: author.author.id }, actor: "ed@example.com" });
    if (!article.ok) throw new Error("draft not created");
    await db.insert(user).values([
      { id: "u-ann", name: "Ann", email: "ann@example.com", emailVerified: true, role: "reader" },
      { id: "u-boss", name: "Boss", email: ADMIN, emailVerified: true, role: "admin" },
    ]);
    expect(await changeRole(db, { userId: "u-ann", role: "editor", actor: ADMIN })).toMatchObject({ ok: true });
    const alert = await saveDraft(db, { name: "Fed day", body: "Patriot Investor alert. Reply STOP to opt out", audience: AudienceSchema.parse({}), actor: ADMIN, siteUrl: "https://example.com", pricePerSegment: 0.0083 });
    if (!alert.ok) throw new Error(alert.message);
    const issue = await saveIssueDraft(db, { draft: { subject: "Weekly: gold and bonds", previewText: "", introMarkdown: "Hello", articleSlugs: [] }, actor: ADMIN, known: [] });
    if (!issue.ok) throw new Error("issue not saved");
    expect(await changeInternalDnc(db, { phone: "(212) 456-3210", add: true, actor: ADMIN })).toMatchObject({ ok: true });
    // A newsletter's send is a campaign too: its change links to the issue.
    const [send] = await db.insert(campaigns).values({ channel: "email", name: "newsletter-send", body: "" }).returning({ id: campaigns.id });
    await db.update(newsletterIssues).set({ campaignId: send!.id }).where(eq(newsletterIssues.id, issue.id));
    await db.insert(auditLog).values({ actor: "system", action: "campaign.started", entity: `campaign:${send!.id}`, after: JSON.stringify({ planned: 2 }) });
    // A change to something since removed still reads as a sentence.
    await db.insert(auditLog).values({ actor: ADMIN, action: "article.published", entity: "article:00000000-0000-4000-8000-000000000000" });
    // A backup loaded from the command line (app/db/transfer.server.ts writes it so).
    await db.insert(auditLog).values({ actor: commandLineActor("db:import", "ops"), action: "database.import", entity: "database", after: JSON.stringify({ file: "backup.jsonl.gz", rows: 1200 }) });

    const changes = await loadRecentChanges(db, 10);
    const said = changes.map((change) => {
      const words = describeChange(change, change.subject);
      const subject = words.subject.name ? `${words.subject.noun ? `${words.subject.noun} ` : ""}[${words.subject.name}](${words.subject.href})` : `[${words.subject.noun}](${words.subject.href ?? ""})`;
      return `${words.actor} ${words.lead}${subject}${words.tail}`;
    });
    // (Below them: the seed articles imported when the test database was made.)
    expect(said.slice(0, 9)).toEqual([
      "The db:import command (run by ops) loaded 1,200 rows into [the database]() from backup.jsonl.gz",
      `${ADMIN} published [an article that no longer exists]()`,
      `The site began sending the newsletter [Weekly: gold and bonds](/admin/newsletter/${issue.id}) to 2 recipients`,
      `${ADMIN} added (212) 456-3210 to [the Do-Not-Call list](/admin/dnc)`,
      `${ADMIN} drafted the newsletter [Weekly: gold and bonds](/admin/newsletter/${issue.id})`,
      `${ADMIN} drafted the alert [Fed day](/admin/alerts/${alert.campaign.id})`,
      `${ADMIN} changed the role of [ann@example.com](/admin/people?q=ann%40example.com) from reader to editor`,
      `ed@example.com started the article [Gold in a strong-dollar year](/admin/articles/${article.article.id}) as a draft`,
      `${ADMIN} added the author [Jane Treasury](/admin/authors/${author.author.id})`,
    ]);
    expect(changes.every((change) => !Number.isNaN(Date.parse(change.occurredAt)))).toBe(true);
    expect(await loadRecentChanges(db, 3)).toHaveLength(3);
  });
});
