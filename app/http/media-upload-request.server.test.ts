import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { mediaAssets } from "~/db/schema";
import { action as previewAction } from "~/routes/admin-articles-preview";
import { outcome, SITE, useStaffSessions } from "../../tests/support/staff-session";
import { mediaUploadJson } from "./media-upload-request.server";

function upload(cookie: string, fields: { file?: Blob; name?: string; alt?: string }) {
  const form = new FormData();
  if (fields.alt !== undefined) form.set("alt", fields.alt);
  if (fields.file) form.set("file", fields.file, fields.name ?? "photo.jpg");
  return new Request(`${SITE}/admin/media`, { method: "POST", body: form, headers: { cookie, Origin: SITE, Accept: "application/json" } });
}

describe("POST /admin/media (JSON) and POST /admin/articles/preview", () => {
  const sessions = useStaffSessions("pglite");
  const db = async () => sessions.db;

  it("an editor uploads an image and gets its reference; the alt text is required", async () => {
    const editor = await sessions.signedIn("editor");
    const jpeg = new Blob([await sharp({ create: { width: 1300, height: 650, channels: 3, background: "#aa7711" } }).jpeg().toBuffer()], { type: "image/jpeg" });
    const response = await mediaUploadJson(upload(editor, { file: jpeg, alt: "Coins on a desk" }), db);
    expect(response.status).toBe(201);
    const body = (await response.json()) as { id: string; src: string; alt: string; width: number; height: number };
    expect(body).toEqual({ id: expect.any(String), src: `/media/${body.id}/1300x650`, alt: "Coins on a desk", width: 1300, height: 650 });

    const noAlt = await mediaUploadJson(upload(editor, { file: jpeg }), db);
    expect(noAlt.status).toBe(400);
    expect(((await noAlt.json()) as { error: string }).error).toMatch(/at least 5 characters/);
    const text = await mediaUploadJson(upload(editor, { file: new Blob(["not an image at all"], { type: "image/jpeg" }), name: "fake.jpg", alt: "A fake photo" }), db);
    expect(text.status).toBe(415);
    const none = await mediaUploadJson(upload(editor, { alt: "No file here" }), db);
    expect(none.status).toBe(400);
    expect(await sessions.db.select().from(mediaAssets)).toHaveLength(1);
  }, 60_000);

  it("refuses a file over 15 MB with 413 and keeps nothing", async () => {
    const editor = await sessions.signedIn("editor");
    const big = new Blob([Buffer.alloc(15 * 1024 ** 2 + 1, 7)], { type: "image/jpeg" });
    const response = await mediaUploadJson(upload(editor, { file: big, alt: "Too big a picture" }), db);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: string }).error).toMatch(/larger than 15 MB/);
    expect(await sessions.db.select().from(mediaAssets)).toHaveLength(1);
  }, 60_000);

  it("refuses readers (403) and visitors without a session (401)", async () => {
    const reader = await sessions.signedIn("reader");
    const jpeg = new Blob([await sharp({ create: { width: 10, height: 10, channels: 3, background: "#000" } }).jpeg().toBuffer()]);
    expect((await mediaUploadJson(upload(reader, { file: jpeg, alt: "A black square" }), db)).status).toBe(403);
    expect((await mediaUploadJson(upload("", { file: jpeg, alt: "A black square" }), db)).status).toBe(401);
  });

  it("previews Markdown as the article page renders it, and refuses bodies over 200 KB", async () => {
    const editor = await sessions.signedIn("editor");
    const post = (body: string) =>
      previewAction({
        request: new Request(`${SITE}/admin/articles/preview`, { method: "POST", headers: { cookie: editor, Origin: SITE, "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ body }).toString() }),
        params: {},
        context: {},
      } as never);
    const response = (await post("Intro -- with a dash.\n\n## Heading\n\n| A | B |\n|---|---|\n| 1 | 2 |\n\n<script>alert(1)</script>")) as Response;
    const { html } = (await response.json()) as { html: string };
    expect(html).toMatch(/^<div class="prose-article article-lede mt-10"><p>Intro — with a dash.<\/p>\n<\/div><div class="prose-article mt-6">/);
    expect(html).toContain("<h2");
    expect(html).toContain('<div class="table-scroll" role="region" aria-label="Table" tabindex="0"><table>');
    const tooBig = (await post("x".repeat(210 * 1024))) as Response;
    expect(tooBig.status).toBe(413);
    const reader = await sessions.signedIn("reader");
    expect(
      await outcome(() =>
        previewAction({ request: new Request(`${SITE}/admin/articles/preview`, { method: "POST", headers: { cookie: reader }, body: "body=x" }), params: {}, context: {} } as never),
      ),
    ).toBe(403);
  });
});
