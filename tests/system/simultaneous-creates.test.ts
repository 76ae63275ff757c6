import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTICLE_FIELD_MESSAGES, AUTHOR_FIELD_MESSAGES } from "~/lib/article-texts";
import { createPostgresDatabase } from "../support/test-db";
import { openSiteDatabase, rows } from "./support/inspect";
import { createAdmin, signIn } from "./support/admin-session";
import { startSite, type SiteProcess } from "./support/site";
import { randomClientIp } from "./support/traffic";

const ADMIN = { email: "simultaneous@patriotinvestor.example", password: "Saratoga-Springs-1777!" };
const ROUNDS = 3;

/** Every JSON log line the process wrote at level 50 (error) or above. */
function errorLines(site: SiteProcess) {
  return site
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { level?: number; msg?: string })
    .filter((entry) => (entry.level ?? 0) >= 50);
}

/**
 * Six editors press Create at the same moment with the same new slug, three on each of two
 * processes sharing PostgreSQL: one article is made, the others read the slug message, as they
 * would had they pressed it a second later.
 */
describe("simultaneous creates of one slug through two processes on PostgreSQL", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let a: SiteProcess;
  let b: SiteProcess;
  let cookie: string;
  let authorId: string;

  const post = (site: SiteProcess, path: string, form: Record<string, string>) =>
    fetch(`${site.url}${path}`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: site.url, "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": randomClientIp() },
      body: new URLSearchParams(form),
      redirect: "manual",
    }).then(async (response) => ({ status: response.status, location: response.headers.get("location"), body: await response.text() }));

  /** Six posts at once, alternating between the processes. */
  const sixAtOnce = (path: string, form: Record<string, string>) => Promise.all(Array.from({ length: 6 }, (_, i) => post(i % 2 === 0 ? a : b, path, form)));

  beforeAll(async () => {
    database = await createPostgresDatabase();
    [a, b] = await Promise.all([startSite({ DATABASE_URL: database.url }), startSite({ DATABASE_URL: database.url })]);
    createAdmin({ DATABASE_URL: database.url }, ADMIN);
    cookie = await signIn(a.url, ADMIN);
    const handle = await openSiteDatabase({ url: database.url });
    try {
      authorId = (await rows<{ id: string }>(handle, "SELECT id FROM authors WHERE slug = 'david-caldwell'"))[0]!.id;
    } finally {
      await handle.close();
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
  });

  it("the article form: one draft is created, five are answered 400 with the slug message, none 500", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const slug = `six-editors-at-once-${round}`;
      const answers = await sixAtOnce("/admin/articles/new", { intent: "save", title: "Six editors at once on one slug", slug, authorId, excerpt: "", body: "" });
      expect(answers.map((answer) => answer.status).sort(), `round ${round}`).toEqual([302, 400, 400, 400, 400, 400]);
      expect(answers.find((answer) => answer.status === 302)!.location).toMatch(/^\/admin\/articles\/[0-9a-f-]{36}\?done=created$/);
      for (const refused of answers.filter((answer) => answer.status === 400)) expect(refused.body).toContain(ARTICLE_FIELD_MESSAGES.slugTaken);
    }
    const handle = await openSiteDatabase({ url: database.url });
    try {
      expect(await rows(handle, "SELECT slug FROM articles WHERE slug LIKE 'six-editors-at-once-%' ORDER BY slug")).toEqual(
        Array.from({ length: ROUNDS }, (_, round) => ({ slug: `six-editors-at-once-${round}` })),
      );
    } finally {
      await handle.close();
    }
    expect([...errorLines(a), ...errorLines(b)]).toEqual([]);
  });

  it("the author form: one profile is created, five are answered 400 with the slug message, none 500", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const answers = await sixAtOnce("/admin/authors", { name: "Six At Once", slug: `six-at-once-${round}` });
      expect(answers.map((answer) => answer.status).sort(), `round ${round}`).toEqual([302, 400, 400, 400, 400, 400]);
      for (const refused of answers.filter((answer) => answer.status === 400)) expect(refused.body).toContain(AUTHOR_FIELD_MESSAGES.slugTaken);
    }
    expect([...errorLines(a), ...errorLines(b)]).toEqual([]);
  });
});
