import { desc, inArray, or } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articles, auditLog, authors, campaigns, mediaAssets, newsletterIssues, user } from "~/db/schema";
import type { AuditSubject } from "~/lib/audit-texts";

export type RecentChange = {
  id: number;
  actor: string | null;
  action: string;
  before: string | null;
  after: string | null;
  occurredAt: string;
  subject: AuditSubject;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `entity` is `kind:id` for one row, or a table's name for a change to a list as a whole. */
function split(entity: string) {
  const colon = entity.indexOf(":");
  return colon < 0 ? { kind: entity, id: "" } : { kind: entity.slice(0, colon), id: entity.slice(colon + 1) };
}

const emailIn = (value: string | null) => {
  if (!value) return "";
  try {
    const parsed: unknown = JSON.parse(value);
    if (parsed && typeof parsed === "object" && typeof (parsed as { email?: unknown }).email === "string") return (parsed as { email: string }).email;
  } catch {
    // A plain address (user.create_admin and user.promote store it as it is).
  }
  return value.includes("@") ? value : "";
};

const mediaNameIn = (value: string | null) => {
  try {
    const parsed = JSON.parse(value ?? "") as { name?: unknown };
    return typeof parsed.name === "string" ? parsed.name : "";
  } catch {
    return "";
  }
};

const peopleHref = (email: string) => `/admin/people?q=${encodeURIComponent(email)}`;

/**
 * The latest audit entries, each with the thing it changed named and linked as the staff home
 * shows it: the article's title, the alert's or newsletter's name, the person's address. One
 * query per kind of thing for the ids on the page (at most `limit` each), whatever the log's size.
 */
export async function loadRecentChanges(db: Db, limit = 10): Promise<RecentChange[]> {
  const entries = await db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(limit);
  const ids = (kind: string) => [...new Set(entries.map((entry) => split(entry.entity)).filter((e) => e.kind === kind).map((e) => e.id))];
  const uuids = (kind: string) => ids(kind).filter((id) => UUID.test(id));
  const issueIds = ids("newsletter_issue").map(Number).filter(Number.isSafeInteger);

  const [articleRows, authorRows, campaignRows, userRows, mediaRows] = await Promise.all([
    uuids("article").length ? db.select({ id: articles.id, title: articles.title }).from(articles).where(inArray(articles.id, uuids("article"))) : [],
    uuids("author").length ? db.select({ id: authors.id, name: authors.name }).from(authors).where(inArray(authors.id, uuids("author"))) : [],
    uuids("campaign").length ? db.select({ id: campaigns.id, name: campaigns.name, channel: campaigns.channel }).from(campaigns).where(inArray(campaigns.id, uuids("campaign"))) : [],
    ids("user").length ? db.select({ id: user.id, email: user.email }).from(user).where(inArray(user.id, ids("user"))) : [],
    uuids("media").length ? db.select({ id: mediaAssets.id, name: mediaAssets.originalName }).from(mediaAssets).where(inArray(mediaAssets.id, uuids("media"))) : [],
  ]);
  // A newsletter's send is a campaign: its page is the issue's.
  const emailCampaigns = campaignRows.filter((row) => row.channel === "email").map((row) => row.id);
  const issueWhere = [
    ...(issueIds.length ? [inArray(newsletterIssues.id, issueIds)] : []),
    ...(emailCampaigns.length ? [inArray(newsletterIssues.campaignId, emailCampaigns)] : []),
  ];
  const issues = issueWhere.length
    ? await db.select({ id: newsletterIssues.id, subject: newsletterIssues.subject, campaignId: newsletterIssues.campaignId }).from(newsletterIssues).where(or(...issueWhere))
    : [];

  const subjectOf = (entry: (typeof entries)[number]): AuditSubject => {
    const { kind, id } = split(entry.entity);
    switch (kind) {
      case "article": {
        const title = articleRows.find((row) => row.id === id)?.title;
        return title ? { noun: "the article", name: title, href: `/admin/articles/${id}` } : { noun: "an article that no longer exists" };
      }
      case "author": {
        const name = authorRows.find((row) => row.id === id)?.name;
        return name ? { noun: "the author", name, href: `/admin/authors/${id}` } : { noun: "an author who no longer exists" };
      }
      case "media": {
        const name = mediaRows.find((row) => row.id === id)?.name ?? mediaNameIn(entry.after);
        return { noun: "the image", name: name || undefined, href: "/admin/media" };
      }
      case "campaign": {
        const campaign = campaignRows.find((row) => row.id === id);
        if (!campaign) return { noun: "a send that no longer exists" };
        if (campaign.channel === "sms") return { noun: "the alert", name: campaign.name, href: `/admin/alerts/${id}` };
        const issue = issues.find((row) => row.campaignId === id);
        return { noun: "the newsletter", name: issue?.subject ?? campaign.name, href: issue ? `/admin/newsletter/${issue.id}` : "/admin/newsletter" };
      }
      case "newsletter_issue": {
        const issue = issues.find((row) => String(row.id) === id);
        return issue ? { noun: "the newsletter", name: issue.subject, href: `/admin/newsletter/${issue.id}` } : { noun: "a newsletter that no longer exists" };
      }
      case "user": {
        const email = userRows.find((row) => row.id === id)?.email ?? emailIn(entry.after);
        return email ? { noun: "", name: email, href: peopleHref(email) } : { noun: "an account that no longer exists" };
      }
      case "sms_config":
        return { noun: "the welcome text", href: "/admin/sms" };
      case "dnc_numbers":
        return { noun: "the Do-Not-Call list", href: "/admin/dnc" };
      case "rnd_answers":
        return { noun: "the reassigned-numbers answers", href: "/admin/rnd" };
      case "subscribers":
        return { noun: "the newsletter list", href: "/admin/subscribers" };
      case "consent_chain":
        return { noun: "the consent record’s chain", href: "/admin/consent" };
      case "database":
        return { noun: "the database" };
      case "redirects":
        return { noun: "the redirects", href: "/admin/redirects" };
      case "ad_costs":
        return { noun: "the ad costs", href: "/admin/analytics/costs" };
      case "import":
        return { noun: `site import ${id}`, href: `/admin/import/${id}` };
      default:
        return { noun: entry.entity };
    }
  };

  return entries.map((entry) => ({
    id: entry.id,
    actor: entry.actor,
    action: entry.action,
    before: entry.before,
    after: entry.after,
    occurredAt: entry.occurredAt.toISOString(),
    subject: subjectOf(entry),
  }));
}
