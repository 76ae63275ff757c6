import { Form, Link } from "react-router";
import type { Route } from "./+types/admin-import";
import { requireAdmin } from "~/auth/guards.server";
import { Field } from "~/components/forms/field";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { getDb } from "~/db/database.server";
import { handleImportUpload } from "~/http/import-upload-request.server";
import { IMPORT_PAGE_TEXTS as T } from "~/lib/import-texts";
import { pageMeta } from "~/lib/route-meta";
import { listRuns } from "~/services/import/runs.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const runs = await listRuns(await getDb());
  return {
    runs: runs.map((run) => ({ id: run.id, kind: run.kind, fileName: run.fileName, status: run.status, itemsDone: run.itemsDone, itemsTotal: run.itemsTotal, createdAt: run.createdAt.toISOString() })),
  };
}

/** The upload: streamed to disk, then its page (routes only parse, guard and delegate). */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireAdmin(request);
  return handleImportUpload(request, await getDb(), user.email);
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: T.title, description: T.intro, path: "/admin/import", noindex: true });

export default function AdminImport({ loaderData, actionData }: Route.ComponentProps) {
  const { runs } = loaderData;
  return (
    <section aria-labelledby="import-heading" className="space-y-6">
      <h1 id="import-heading" className="text-3xl font-extrabold text-primary">
        {T.title}
      </h1>
      <p className="max-w-3xl text-muted-foreground">{T.intro}</p>
      {actionData && "notice" in actionData ? <NoticeBanner notice={actionData.notice} /> : null}
      <Card className="max-w-2xl p-6">
        <h2 className="text-lg font-bold text-primary">{T.uploadHeading}</h2>
        <Form method="post" encType="multipart/form-data" reloadDocument className="mt-4 space-y-4">
          <fieldset className="space-y-2">
            <legend className="text-sm font-semibold">{T.kindLegend}</legend>
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" name="kind" value="wordpress" defaultChecked /> {T.kindWordPress}
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" name="kind" value="ghost" /> {T.kindGhost}
            </label>
          </fieldset>
          <Field label={T.siteLabel} name="site" type="url" placeholder="https://old-site.example" />
          <Field label={T.fileLabel} name="file" type="file" accept=".xml,.json,application/xml,text/xml,application/json" required />
          <Field label={T.uploadsLabel} hint={T.uploadsHint} name="uploads" type="file" accept=".zip,application/zip" />
          <Button type="submit">{T.upload}</Button>
        </Form>
      </Card>
      <Card className="p-6">
        <h2 className="text-lg font-bold text-primary">{T.runsHeading}</h2>
        {runs.length === 0 ? (
          <p className="mt-2 text-sm text-muted-foreground">{T.noRuns}</p>
        ) : (
          <div className="mt-4 overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead>
                <tr className="border-b">
                  <th scope="col" className="py-2 pr-4">{T.columns.file}</th>
                  <th scope="col" className="py-2 pr-4">{T.columns.status}</th>
                  <th scope="col" className="py-2 pr-4">{T.columns.progress}</th>
                  <th scope="col" className="py-2">{T.columns.started}</th>
                </tr>
              </thead>
              <tbody>
                {runs.map((run) => (
                  <tr key={run.id} className="border-b last:border-0">
                    <td className="py-2 pr-4">
                      <Link to={`/admin/import/${run.id}`} className="font-semibold text-primary underline">
                        {run.fileName}
                      </Link>{" "}
                      <span className="text-muted-foreground">({run.kind === "ghost" ? "Ghost" : "WordPress"})</span>
                    </td>
                    <td className="py-2 pr-4">{T.status[run.status] ?? run.status}</td>
                    <td className="py-2 pr-4">{run.itemsTotal > 0 ? T.progressLabel(run.itemsDone, run.itemsTotal) : "–"}</td>
                    <td className="py-2">{run.createdAt.slice(0, 16).replace("T", " ")} UTC</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </section>
  );
}
