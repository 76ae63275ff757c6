import { useEffect, useState } from "react";
import { data, Form, useRevalidator } from "react-router";
import type { Route } from "./+types/admin-dnc";
import { requireAdmin } from "~/auth/guards.server";
import { Field } from "~/components/forms/field";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { getDatabase, getDb } from "~/db/database.server";
import { readFormOrAnswer } from "~/http/body.server";
import { handleDncUpload } from "~/http/dnc-upload-request.server";
import type { Notice } from "~/lib/notices";
import { pageMeta } from "~/lib/route-meta";
import { changeInternalDnc, dncStatus } from "~/services/dnc/dnc.server";
import { getDncUpload } from "~/services/dnc/upload.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const db = await getDb();
  const uploadId = Number(new URL(request.url).searchParams.get("upload"));
  const upload = Number.isSafeInteger(uploadId) && uploadId > 0 ? await getDncUpload(db, uploadId) : null;
  return {
    ...(await dncStatus(db)),
    today: new Date().toISOString().slice(0, 10),
    upload: upload && {
      id: upload.id,
      fileName: upload.fileName,
      mode: upload.mode,
      dataDate: upload.dataDate,
      state: upload.state,
      bytesRead: upload.bytesRead,
      bytesTotal: upload.bytesTotal,
      lines: upload.lines,
      changed: upload.changed,
      badLines: upload.badLines,
      badLineSamples: upload.badLineSamples,
      error: upload.error,
    },
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireAdmin(request);
  if (/^multipart\/form-data/i.test(request.headers.get("content-type") ?? "")) return handleDncUpload(request, await getDatabase(), user.email);
  const body = await readFormOrAnswer(request);
  if ("answer" in body) return body.answer;
  const form = body.form;
  const add = form.intent !== "remove";
  const result = await changeInternalDnc(await getDb(), { phone: form.phone ?? "", add, actor: user.email });
  if (!result.ok) return data<{ notice: Notice }>({ notice: { title: "Not Changed", description: result.message, variant: "error" } }, { status: 400 });
  return data<{ notice: Notice }>({
    notice: { title: add ? "Number Added" : "Number Removed", description: `${result.e164} ${add ? "is now on" : "was removed from"} our Do-Not-Call list.`, variant: "success" },
  });
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Do-Not-Call", description: "The Do-Not-Call list.", path: "/admin/dnc", noindex: true });

type Upload = NonNullable<Route.ComponentProps["loaderData"]["upload"]>;
type Progress = Pick<Upload, "state" | "bytesRead" | "bytesTotal" | "lines" | "changed" | "badLines" | "error">;

/** Polls the upload's status while it imports; reloads the page's figures once it is over. */
function useUploadProgress(upload: Upload | null): Progress | null {
  const revalidator = useRevalidator();
  const [progress, setProgress] = useState<Progress | null>(upload);
  const [seen, setSeen] = useState(upload);
  if (seen !== upload) {
    setSeen(upload);
    setProgress(upload);
  }
  const id = upload?.id;
  const importing = progress?.state === "importing" || progress?.state === "applying";
  useEffect(() => {
    if (!id || !importing) return;
    let stopped = false;
    const timer = setInterval(async () => {
      const response = await fetch(`/admin/dnc/uploads/${id}`, { headers: { Accept: "application/json" } }).catch(() => null);
      if (stopped || !response?.ok) return;
      const next = (await response.json()) as Progress;
      if (stopped) return;
      setProgress(next);
      if (next.state === "done" || next.state === "failed") void revalidator.revalidate();
    }, 500);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [id, importing, revalidator]);
  return progress;
}

function UploadReport({ upload, progress }: { upload: Upload; progress: Progress }) {
  const percent = progress.bytesTotal > 0 ? Math.min(100, Math.round((progress.bytesRead / progress.bytesTotal) * 100)) : 0;
  const verb = upload.mode === "add" ? "added" : "removed";
  return (
    <Card className="p-6" data-testid="dnc-upload">
      <h2 className="text-lg font-bold text-primary">
        {upload.fileName} (data date {upload.dataDate})
      </h2>
      {progress.state === "importing" || progress.state === "applying" ? (
        <div className="mt-4 space-y-2">
          <label htmlFor="dnc-upload-progress" className="block text-sm font-semibold">
            {progress.state === "importing"
              ? `Importing: ${progress.lines.toLocaleString("en-US")} lines read`
              : `Applying to the list: ${progress.changed.toLocaleString("en-US")} numbers ${verb} so far`}
          </label>
          <progress id="dnc-upload-progress" max={100} value={percent} className="h-3 w-full">
            {percent}%
          </progress>
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {percent}% · the list changes only once the whole file has been read. <a href={`/admin/dnc?upload=${upload.id}`} className="underline">Refresh</a>
          </p>
        </div>
      ) : progress.state === "done" ? (
        <p role="status" className="mt-3 text-sm" data-testid="dnc-upload-done">
          Imported: {progress.lines.toLocaleString("en-US")} lines, {progress.changed.toLocaleString("en-US")} numbers {verb}, {progress.badLines.toLocaleString("en-US")} bad lines.
        </p>
      ) : (
        <p role="alert" className="mt-3 text-sm text-destructive" data-testid="dnc-upload-failed">
          Not imported: {progress.error ?? "the import failed."} The list was not changed.
        </p>
      )}
      {(progress.state === "done" || progress.state === "failed") && upload.badLineSamples.length > 0 ? (
        <details className="mt-3 text-sm">
          <summary>Bad lines ({upload.badLines.toLocaleString("en-US")})</summary>
          <ul className="mt-2 font-mono text-xs">
            {upload.badLineSamples.map((bad) => (
              <li key={bad.line}>
                line {bad.line}: {JSON.stringify(bad.text)}
              </li>
            ))}
          </ul>
          {upload.badLines > upload.badLineSamples.length ? <p className="mt-1">… and {(upload.badLines - upload.badLineSamples.length).toLocaleString("en-US")} more</p> : null}
        </details>
      ) : null}
    </Card>
  );
}

export default function AdminDnc({ loaderData, actionData }: Route.ComponentProps) {
  const { counts, dataDate, ageDays, maxAgeDays, stale, upload, today } = loaderData;
  const progress = useUploadProgress(upload);
  return (
    <section aria-labelledby="dnc-heading" className="space-y-6">
      <h1 id="dnc-heading" className="text-3xl font-extrabold text-primary">
        Do-Not-Call list
      </h1>
      {actionData && "notice" in actionData ? <NoticeBanner notice={actionData.notice} /> : null}
      <div className="grid gap-6 md:grid-cols-3">
        <Card className="p-6">
          <p className="text-sm text-muted-foreground">National registry numbers</p>
          <p className="text-3xl font-extrabold" data-testid="dnc-federal">{counts.federal.toLocaleString("en-US")}</p>
        </Card>
        <Card className="p-6">
          <p className="text-sm text-muted-foreground">Our own opt-outs</p>
          <p className="text-3xl font-extrabold" data-testid="dnc-internal">{counts.internal.toLocaleString("en-US")}</p>
        </Card>
        <Card className="p-6">
          <p className="text-sm text-muted-foreground">Registry data date</p>
          <p className="text-3xl font-extrabold">{dataDate ?? "none"}</p>
        </Card>
      </div>
      {stale ? (
        <p role="alert" className="rounded-md border-l-4 border-destructive bg-destructive-soft p-4 text-sm text-destructive">
          {dataDate
            ? `The registry data is ${ageDays} days old. The law expects data no older than ${maxAgeDays} days: download a new copy and upload it below.`
            : "No registry data has been imported. Download your area codes from the National Do Not Call Registry and upload them below."}
        </p>
      ) : null}
      {upload && progress ? <UploadReport upload={upload} progress={progress} /> : null}
      <Card className="max-w-2xl p-6">
        <h2 className="text-lg font-bold text-primary">Upload a registry file</h2>
        <p className="mt-1 text-sm text-muted-foreground">
          A full area-code download or a change file, as .txt or .zip. The list changes only when the whole file has been read.
        </p>
        <Form method="post" encType="multipart/form-data" reloadDocument className="mt-4 space-y-4">
          <Field label="Date the data was downloaded" name="dataDate" type="date" max={today} defaultValue={today} required />
          <fieldset className="space-y-2">
            <legend className="text-sm font-semibold">The file’s numbers are</legend>
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" name="mode" value="add" defaultChecked /> added to the list (area-code file, or a change file’s additions)
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" name="mode" value="remove" /> removed from the list (a change file’s deletions)
            </label>
          </fieldset>
          <Field label="Registry file" name="file" type="file" accept=".txt,.csv,.zip,text/plain,application/zip" required />
          <Button type="submit">Upload and import</Button>
        </Form>
      </Card>
      <Card className="max-w-lg p-6">
        <h2 className="text-lg font-bold text-primary">Add or remove one number</h2>
        <Form method="post" className="mt-4 space-y-3">
          <Field label="Phone" name="phone" type="tel" required />
          <div className="flex gap-3">
            <Button type="submit" name="intent" value="add">
              Add to list
            </Button>
            <Button type="submit" name="intent" value="remove" variant="outline">
              Remove from list
            </Button>
          </div>
        </Form>
      </Card>
    </section>
  );
}
