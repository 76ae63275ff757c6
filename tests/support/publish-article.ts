import { expect, type Page } from "@playwright/test";

type ArticleFields = { title: string; slug: string; body: string; category: string; image?: string; authorId?: string; sponsor?: string };

/**
 * Publishes an article as the desk's form does without JavaScript (one POST with intent=publish);
 * the path of its edit page. The form's own behaviour is editorial-desk.spec.ts's subject.
 */
export async function publishArticle(page: Page, article: ArticleFields) {
  await page.goto("/admin/articles/new");
  const authorId = article.authorId ?? (await page.locator('select[name="authorId"]').inputValue());
  const response = await page.request.post("/admin/articles/new", {
    headers: { Origin: new URL(page.url()).origin },
    form: {
      intent: "publish",
      title: article.title,
      slug: article.slug,
      excerpt: "An article written by a browser test to check what readers and search engines get.",
      body: article.body,
      category: article.category,
      image: article.image ?? "/images/articles/generational-wealth.svg",
      imageAlt: "A picture chosen for the test article",
      authorId,
      ...(article.sponsor ? { sponsored: "on", sponsorName: article.sponsor } : {}),
    },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
  const location = new URL(response.headers().location!, page.url());
  expect(location.search).toBe("?done=published");
  return location.pathname;
}

/**
 * Takes a test's article off the site again (its address then answers 410), so that the related
 * articles of the seed articles, which other specs check, are theirs again.
 */
export async function unpublishArticle(page: Page, editPath: string) {
  const response = await page.request.post(editPath, { headers: { Origin: new URL(page.url()).origin }, form: { intent: "unpublish" }, maxRedirects: 0 });
  expect(response.status(), await response.text()).toBe(302);
}
