import { data, Form } from "react-router";
import { Pager } from "~/components/admin/pager";
import type { Route } from "./+types/admin-media";
import { requireEditor } from "~/auth/guards.server";
import { ResponsiveImage } from "~/components/media/responsive-image";
import { Button } from "~/components/ui/button";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { getDb } from "~/db/database.server";
import { receiveMediaUpload } from "~/http/media-upload-request.server";
import { pageParam } from "~/http/page-param";
import { MEDIA_NOTICES, type Notice } from "~/lib/notices";
import { pageMeta } from "~/lib/route-meta";
import { ALT_MAX, ALT_MIN } from "~/lib/media-image";
import { listImages, MEDIA_PAGE_SIZE } from "~/services/content/media.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireEditor(request);
  const page = pageParam(request);
  const list = await listImages(await getDb(), page);
  return {
    page,
    pages: Math.max(1, Math.ceil(list.total / MEDIA_PAGE_SIZE)),
    total: list.total,
    rows: list.rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
  };
}

type ActionData = { notice: Notice; markdown?: string };

/** The page's no-JS upload form; the editor's image button gets JSON from the same URL (server/fast-routes.ts). */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireEditor(request);
  const answer = await receiveMediaUpload(request, await getDb(), user.email);
  if (answer.status !== 201) return data<ActionData>({ notice: answer.notice }, { status: answer.status });
  return data<ActionData>({ notice: MEDIA_NOTICES.uploaded, markdown: `![${answer.asset.alt}](${answer.asset.src})` }, { status: 201 });
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Images", description: "Uploaded images.", path: "/admin/media", noindex: true });

export default function AdminMedia({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, page, pages, total } = loaderData;
  const result = actionData && "notice" in actionData ? (actionData as ActionData) : null;
  return (
    <section aria-labelledby="media-heading" className="space-y-6">
      <h1 id="media-heading" className="text-3xl font-extrabold text-primary">
        Images
      </h1>
      {result ? <NoticeBanner notice={result.notice} /> : null}
      {result?.markdown ? (
        <p className="text-sm">
          Markdown for an article: <code className="break-all rounded bg-muted px-1 py-0.5">{result.markdown}</code>
        </p>
      ) : null}
      <Form method="post" encType="multipart/form-data" className="max-w-xl space-y-4 rounded-lg border border-border p-4">
        <h2 className="text-lg font-bold text-primary">Upload an image</h2>
        <div>
          <label htmlFor="media-file" className="mb-1.5 block text-sm font-semibold">
            Image file (JPEG, PNG, WebP, AVIF, GIF or TIFF; at most 15 MB)
          </label>
          <input id="media-file" name="file" type="file" accept="image/*" required className="block w-full text-sm" />
        </div>
        <div>
          <label htmlFor="media-alt" className="mb-1.5 block text-sm font-semibold">
            Alt text (what the image shows, {ALT_MIN} to {ALT_MAX} characters)
          </label>
          <input id="media-alt" name="alt" required minLength={ALT_MIN} maxLength={ALT_MAX} className="block w-full rounded-md border border-input bg-background px-3 py-2" />
        </div>
        <Button type="submit" size="sm">
          Upload
        </Button>
      </Form>
      <h2 className="text-xl font-bold text-primary">Uploads ({total})</h2>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {rows.map((row) => (
          <li key={row.id} className="rounded-lg border border-border p-3 text-sm">
            <ResponsiveImage src={row.src} alt={row.alt} sizes="(min-width: 64rem) 320px, (min-width: 40rem) 50vw, 100vw" className="h-auto w-full rounded" />
            <p className="mt-2 font-semibold">{row.alt}</p>
            <p className="text-muted-foreground">
              {row.width}×{row.height} · {row.originalName} · {row.createdAt.slice(0, 10)}
            </p>
            <code className="mt-1 block break-all text-xs">{`![${row.alt}](${row.src})`}</code>
          </li>
        ))}
      </ul>
      <Pager page={page} pages={pages} />
    </section>
  );
}
