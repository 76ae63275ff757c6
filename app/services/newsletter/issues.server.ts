import { desc, eq, sql } from "drizzle-orm";
import { campaigns } from "~/db/schema";
import { z } from "zod";
import type { Db } from "~/db/client.server";
import { auditLog, newsletterIssues } from "~/db/schema";
import { socialImagePath } from "~/lib/seo";
import { enqueueEmail } from "../providers/email.server";
import { renderIssue, personalize, type DigestArticle, type IssueContent, type RenderedIssue } from "./issue-email.server";

export const MAX_DIGEST_ARTICLES = 6;

export const IssueDraftSchema = z.object({
  subject: z.string().trim().min(3, "Enter a subject of at least 3 characters.").max(150, "Keep the subject under 150 characters."),
  previewText: z.string().trim().max(200, "Keep the preview text under 200 characters.").default(""),
  introMarkdown: z.string().max(20_000, "Keep the introduction under 20,000 characters.").default(""),
  articleSlugs: z.array(z.string().regex(/^[a-z0-9-]{1,120}$/)).max(MAX_DIGEST_ARTICLES, `Pick at most ${MAX_DIGEST_ARTICLES} articles.`).default([]),
});

export type IssueDraft = z.infer<typeof IssueDraftSchema>;
export type NewsletterIssue = typeof newsletterIssues.$inferSelect;

/** What the digest needs of an article; the content index is passed in so tests can use their own. */
export type DigestSource = { slug: string; title: string; excerpt: string; image: string; imageAlt: string; category: string };

export type IssueSettings = { siteName: string; siteUrl: string; postalAddress: string | undefined };

export function slugsOf(issue: Pick<NewsletterIssue, "articleSlugs">) {
  return issue.articleSlugs ? issue.articleSlugs.split(",").filter(Boolean) : [];
}

/** An issue is a draft until it is scheduled; from then on its campaign's status is its status. */
export type IssueStatus = "draft" | (typeof campaigns.$inferSelect)["status"];

export async function listIssues(db: Db, limit = 50) {
  const rows = await db
    .select({ issue: newsletterIssues, status: campaigns.status, scheduledAt: campaigns.scheduledAt })
    .from(newsletterIssues)
    .leftJoin(campaigns, eq(campaigns.id, newsletterIssues.campaignId))
    .orderBy(desc(newsletterIssues.createdAt), desc(newsletterIssues.id))
    .limit(limit);
  return rows.map((row) => ({ ...row.issue, status: (row.status ?? "draft") as IssueStatus, scheduledAt: row.scheduledAt }));
}

export async function getIssue(db: Pick<Db, "select">, id: number) {
  const [issue] = await db.select().from(newsletterIssues).where(eq(newsletterIssues.id, id));
  return issue ?? null;
}

export async function issueWithStatus(db: Db, id: number) {
  const [row] = await db
    .select({ issue: newsletterIssues, status: campaigns.status, scheduledAt: campaigns.scheduledAt, scheduleZone: campaigns.scheduleZone })
    .from(newsletterIssues)
    .leftJoin(campaigns, eq(campaigns.id, newsletterIssues.campaignId))
    .where(eq(newsletterIssues.id, id));
  if (!row) return null;
  return { ...row.issue, status: (row.status ?? "draft") as IssueStatus, scheduledAt: row.scheduledAt, scheduleZone: row.scheduleZone };
}

export type SaveIssueResult = { ok: true; id: number } | { ok: false; code: "unknown_article"; slug: string } | { ok: false; code: "not_editable" };

/** Creates (no id) or updates a draft; only drafts and scheduled issues can be edited. */
export async function saveIssueDraft(db: Db, input: { id?: number; draft: IssueDraft; actor: string; known: readonly DigestSource[] }): Promise<SaveIssueResult> {
  const unknown = input.draft.articleSlugs.find((slug) => !input.known.some((article) => article.slug === slug));
  if (unknown) return { ok: false, code: "unknown_article", slug: unknown };
  const values = {
    subject: input.draft.subject,
    previewText: input.draft.previewText,
    introMarkdown: input.draft.introMarkdown,
    articleSlugs: input.draft.articleSlugs.join(","),
  };
  return db.transaction(async (tx) => {
    let id = input.id;
    if (id === undefined) {
      const [row] = await tx.insert(newsletterIssues).values({ ...values, createdBy: input.actor }).returning({ id: newsletterIssues.id });
      id = row!.id;
    } else {
      const [row] = await tx
        .update(newsletterIssues)
        .set({ ...values, updatedAt: sql`now()` })
        // Editable until its send starts: the issue is rendered when the campaign starts.
        .where(sql`${newsletterIssues.id} = ${id} AND (${newsletterIssues.campaignId} IS NULL OR EXISTS (SELECT 1 FROM campaigns c WHERE c.id = ${newsletterIssues.campaignId} AND c.status = 'scheduled'))`)
        .returning({ id: newsletterIssues.id });
      if (!row) return { ok: false as const, code: "not_editable" as const };
    }
    await tx.insert(auditLog).values({ actor: input.actor, action: input.id === undefined ? "newsletter.create" : "newsletter.update", entity: `newsletter_issue:${id}`, after: JSON.stringify(values) });
    return { ok: true as const, id };
  });
}

/** The digest's articles in the chosen order, with absolute links and e-mail-safe (PNG) images. */
export function digestArticles(slugs: readonly string[], known: readonly DigestSource[], siteUrl: string): DigestArticle[] {
  return slugs.flatMap((slug) => {
    const article = known.find((candidate) => candidate.slug === slug);
    if (!article) return [];
    return [
      {
        title: article.title,
        excerpt: article.excerpt,
        url: `${siteUrl}/articles/${article.slug}`,
        // E-mail clients do not show SVG; the PNG made for social previews stands in.
        imageUrl: `${siteUrl}${socialImagePath(article.image)}`,
        imageAlt: article.imageAlt,
        category: article.category,
      },
    ];
  });
}

export function issueContent(issue: Pick<NewsletterIssue, "subject" | "previewText" | "introMarkdown" | "articleSlugs">, known: readonly DigestSource[], settings: IssueSettings): IssueContent {
  return {
    siteName: settings.siteName,
    siteUrl: settings.siteUrl,
    postalAddress: settings.postalAddress ?? "(postal address not set: SITE_POSTAL_ADDRESS)",
    subject: issue.subject,
    previewText: issue.previewText,
    introMarkdown: issue.introMarkdown,
    articles: digestArticles(slugsOf(issue), known, settings.siteUrl),
  };
}

export async function renderIssueFor(issue: NewsletterIssue, known: readonly DigestSource[], settings: IssueSettings): Promise<RenderedIssue> {
  return renderIssue(issueContent(issue, known, settings));
}

/** The RFC 8058 pair and the visible links for one recipient. */
export function recipientLinks(siteUrl: string, emailToken: string, mailto: string) {
  const token = encodeURIComponent(emailToken);
  const preferencesUrl = `${siteUrl}/newsletter/preferences?token=${token}`;
  const oneClickUrl = `${siteUrl}/newsletter/unsubscribe?token=${token}`;
  return {
    links: { unsubscribeUrl: preferencesUrl, preferencesUrl },
    headers: {
      "List-Unsubscribe": `<${oneClickUrl}>, <mailto:${mailto}?subject=unsubscribe%20${token}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}

/**
 * A test copy to a staff address: the real rendering, marked [TEST] in the subject. Its unsubscribe
 * links point at a token that belongs to nobody, so pressing them changes nothing.
 */
export async function sendIssueTest(
  db: Db,
  input: { issue: NewsletterIssue; to: string; actor: string; known: readonly DigestSource[]; settings: IssueSettings; mailto: string },
) {
  const rendered = await renderIssueFor(input.issue, input.known, input.settings);
  const { links, headers } = recipientLinks(input.settings.siteUrl, "test-copy-no-subscriber-000000000000000", input.mailto);
  const copy = personalize(rendered, links);
  await enqueueEmail(db, { to: input.to, kind: "newsletter_test", subject: `[TEST] ${input.issue.subject}`, text: copy.text, html: copy.html, headers });
  await db.insert(auditLog).values({ actor: input.actor, action: "newsletter.test_send", entity: `newsletter_issue:${input.issue.id}`, after: input.to });
}
