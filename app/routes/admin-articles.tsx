import { Form, Link } from "react-router";
import type { Route } from "./+types/admin-articles";
import { requireEditor } from "~/auth/guards.server";
import { Pager } from "~/components/admin/pager";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { ARTICLE_CATEGORIES } from "~/config/categories";
import { getDb } from "~/db/database.server";
import { pageParam } from "~/http/page-param";
import { articleNotice } from "~/lib/notices";
import { ARTICLE_STATUS_LABEL } from "~/lib/article-texts";
import { pageMeta } from "~/lib/route-meta";
import { formatInZone } from "~/lib/zoned-time";
import { ARTICLES_PAGE_SIZE, listArticles, type ArticleFilters } from "~/services/content/articles.server";
import { listAuthors } from "~/services/content/authors.server";

const STATUSES = ["draft", "scheduled", "published"] as const;

export async function loader({ request }: Route.LoaderArgs) {
  await requireEditor(request);
  const params = new URL(request.url).searchParams;
  const status = STATUSES.find((value) => value === params.get("status"));
  const category = ARTICLE_CATEGORIES.find((value) => value.name === params.get("category"))?.name;
  const authorId = /^[0-9a-f-]{36}$/.test(params.get("author") ?? "") ? params.get("author")! : undefined;
  const q = (params.get("q") ?? "").slice(0, 100);
  const filters: ArticleFilters = { status, category, authorId, q };
  const db = await getDb();
  const page = pageParam(request);
  const [list, authors] = await Promise.all([listArticles(db, filters, page), listAuthors(db)]);
  return {
    filters: { status: status ?? "", category: category ?? "", author: authorId ?? "", q },
    page,
    pages: Math.max(1, Math.ceil(list.total / ARTICLES_PAGE_SIZE)),
    total: list.total,
    authors: authors.map((author) => ({ id: author.id, name: author.name })),
    articles: list.rows.map((row) => ({ ...row, publishAt: row.publishAt ? formatInZone(row.publishAt, "America/New_York") : null, updatedAt: row.updatedAt.toISOString() })),
    notice: articleNotice(params.get("done")),
  };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: "Articles", description: "Write, schedule and publish articles.", path: "/admin/articles", noindex: true });

const inputClass = "block w-full rounded-md border border-input bg-background px-3 py-2 text-base";

export default function AdminArticles({ loaderData }: Route.ComponentProps) {
  const { filters, authors, articles, notice, page, pages, total } = loaderData;
  // The filters that are set, kept on the pager's links.
  const filterParams = Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== ""));
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-3xl font-extrabold text-primary">Articles</h1>
        <div className="flex flex-wrap gap-2">
          <Link to="/admin/authors" className={buttonVariants({ variant: "outline", size: "sm" })}>
            Authors
          </Link>
          <Link to="/admin/articles/new" className={buttonVariants({ size: "sm" })}>
            New article
          </Link>
        </div>
      </div>
      {notice ? <NoticeBanner notice={notice} /> : null}
      <Card className="p-4">
        <Form method="get" className="grid gap-4 md:grid-cols-5" aria-label="Filter articles">
          <div>
            <label htmlFor="filter-status" className="mb-1 block text-sm font-semibold">
              Status
            </label>
            <select id="filter-status" name="status" defaultValue={filters.status} className={inputClass}>
              <option value="">Any</option>
              {STATUSES.map((status) => (
                <option key={status} value={status}>
                  {ARTICLE_STATUS_LABEL[status]}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="filter-category" className="mb-1 block text-sm font-semibold">
              Category
            </label>
            <select id="filter-category" name="category" defaultValue={filters.category} className={inputClass}>
              <option value="">Any</option>
              {ARTICLE_CATEGORIES.map((category) => (
                <option key={category.slug} value={category.name}>
                  {category.name}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="filter-author" className="mb-1 block text-sm font-semibold">
              Author
            </label>
            <select id="filter-author" name="author" defaultValue={filters.author} className={inputClass}>
              <option value="">Any</option>
              {authors.map((author) => (
                <option key={author.id} value={author.id}>
                  {author.name}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="filter-q" className="mb-1 block text-sm font-semibold">
              Title contains
            </label>
            <input id="filter-q" type="search" name="q" defaultValue={filters.q} className={inputClass} />
          </div>
          <div className="flex items-end">
            <button type="submit" className={buttonVariants({ variant: "outline" })}>
              Filter
            </button>
          </div>
        </Form>
      </Card>
      {/* On a phone every row is a card of "label value" lines (.stack-table), as on the other admin lists. */}
      <table className="stack-table w-full text-left text-sm" data-testid="article-list">
        <caption className="sr-only">Articles, newest change first</caption>
        <thead>
          <tr className="border-b border-border">
            <th scope="col" className="py-2 pr-4">Title</th>
            <th scope="col" className="py-2 pr-4">Status</th>
            <th scope="col" className="py-2 pr-4">Author</th>
            <th scope="col" className="py-2 pr-4">Category</th>
            <th scope="col" className="py-2 pr-4">Publish time (Eastern)</th>
          </tr>
        </thead>
        <tbody>
          {articles.length === 0 ? (
            <tr>
              <td colSpan={5} className="py-4 text-muted-foreground">
                No articles match.
              </td>
            </tr>
          ) : (
            articles.map((article) => (
              <tr key={article.id} className="border-b border-border">
                <td data-label="Title" className="py-2 pr-4">
                  <span>
                    <Link to={`/admin/articles/${article.id}`} className="font-semibold text-primary hover:underline">
                      {article.title}
                    </Link>
                    {article.featured && article.status === "published" ? <span className="ml-2 text-xs font-bold uppercase text-accent-strong">Featured</span> : null}
                  </span>
                </td>
                <td data-label="Status" className="py-2 pr-4">{ARTICLE_STATUS_LABEL[article.status]}</td>
                <td data-label="Author" className="py-2 pr-4">{article.authorName}</td>
                <td data-label="Category" className="py-2 pr-4">{article.category}</td>
                <td data-label="Publish time (Eastern)" className="py-2 pr-4">{article.publishAt ?? "—"}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
      <p className="text-sm text-muted-foreground">
        {total === 1 ? "1 article" : `${total.toLocaleString("en-US")} articles`}
      </p>
      <Pager page={page} pages={pages} params={filterParams} />
    </div>
  );
}
