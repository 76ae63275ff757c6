import { data, Form, Link } from "react-router";
import type { Route } from "./+types/admin-newsletter-import";
import { requireAdmin } from "~/auth/guards.server";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { getDb } from "~/db/database.server";
import { readTextUpload } from "~/http/text-upload.server";
import type { Notice } from "~/lib/notices";
import { pageMeta } from "~/lib/route-meta";
import { CONSENT_METHODS } from "~/services/newsletter/consent-attestation";
import { importNewsletterCsv, NEWSLETTER_CSV_COLUMNS, type ImportRefusal } from "~/services/newsletter/transfer.server";

/** Large enough for 200,000 subscribers; the whole file is parsed in one go. */
const IMPORT_MAX_BYTES = 40 * 1024 * 1024;
const SHOWN_REFUSALS = 500;

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return { columns: NEWSLETTER_CSV_COLUMNS };
}

type Answer = { notice: Notice; report?: { rows: number; imported: number; alreadyListed: number; refusedCount: number; refused: ImportRefusal[] } };

export async function action({ request }: Route.ActionArgs) {
  const user = await requireAdmin(request);
  const fail = (status: number, description: string) => data<Answer>({ notice: { title: "Not Imported", description, variant: "error" } }, { status });
  const upload = await readTextUpload(request, IMPORT_MAX_BYTES, "Choose a CSV file.");
  if (!upload.ok) return fail(upload.status, upload.message);
  const report = await importNewsletterCsv(await getDb(), {
    csv: upload.text,
    fileName: upload.fileName,
    actor: user.email,
    confirmedOptIn: upload.form.get("optedIn") === "yes",
    attestation: { method: String(upload.form.get("consentMethod") ?? ""), detail: String(upload.form.get("consentDetail") ?? "") },
  });
  if (!report.ok) return fail(400, report.message);
  const notes = [
    `Read as ${report.format}.`,
    report.ignoredColumns.length > 0 ? `Columns not carried over: ${report.ignoredColumns.join(", ")}.` : "",
    report.phoneColumns.length > 0 ? `Phone numbers (${report.phoneColumns.join(", ")}) were not imported: a text needs consent evidence a list does not carry; people can opt in to texts on the site.` : "",
  ].filter(Boolean);
  return data<Answer>({
    notice: {
      title: "Imported",
      description: `${report.imported.toLocaleString("en-US")} of ${report.rows.toLocaleString("en-US")} rows imported; ${report.refused.length.toLocaleString("en-US")} refused. ${notes.join(" ")}`,
      variant: report.refused.length > 0 ? "info" : "success",
    },
    report: { rows: report.rows, imported: report.imported, alreadyListed: report.alreadyListed, refusedCount: report.refused.length, refused: report.refused.slice(0, SHOWN_REFUSALS) },
  });
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Import Newsletter Subscribers", description: "Import newsletter subscribers.", path: "/admin/newsletter/import", noindex: true });

export default function AdminNewsletterImport({ loaderData, actionData }: Route.ComponentProps) {
  const report = actionData && "report" in actionData ? actionData.report : undefined;
  return (
    <div className="space-y-8">
      <p>
        <Link to="/admin/newsletter" className="text-sm font-semibold text-primary underline">
          ← Newsletter
        </Link>
      </p>
      <h1 className="text-3xl font-extrabold text-primary">Import newsletter subscribers</h1>
      {actionData && "notice" in actionData ? <NoticeBanner notice={actionData.notice} /> : null}
      <Card className="max-w-2xl p-6">
        <p className="text-sm text-muted-foreground">
          A CSV file whose first line names the columns: <code>{loaderData.columns.join(", ")}</code>. Only <code>email</code> is required; a
          missing status means active. The export of this page has the same columns; Ghost’s members export and the WordPress newsletter
          plugins’ exports (MailPoet, The Newsletter Plugin and the like) are read as they are. Addresses already on the list are left as
          they are, so an import never re-subscribes someone who unsubscribed or whose mail bounced. Phone numbers are never imported.
        </p>
        <Form method="post" encType="multipart/form-data" className="mt-6 space-y-4">
          <div>
            <label htmlFor="file" className="mb-1.5 block text-sm font-semibold">
              CSV file
            </label>
            <input id="file" name="file" type="file" accept=".csv,text/csv" required className="block w-full text-sm" />
          </div>
          <div>
            <label htmlFor="consent-method" className="mb-1.5 block text-sm font-semibold">
              How did these people give consent?
            </label>
            <select id="consent-method" name="consentMethod" required defaultValue="" className="block w-full rounded-md border border-input bg-background px-3 py-2 text-base">
              <option value="" disabled>
                Choose one
              </option>
              {CONSENT_METHODS.map((method) => (
                <option key={method.id} value={method.id}>
                  {method.label}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="consent-detail" className="mb-1.5 block text-sm font-semibold">
              Where and when (kept on each person’s consent evidence)
            </label>
            <input id="consent-detail" name="consentDetail" type="text" maxLength={500} placeholder="The sign-up form at old-site.example, 2019 to 2026" className="block w-full rounded-md border border-input bg-background px-3 py-2 text-base" />
          </div>
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" name="optedIn" value="yes" required className="mt-1 size-4" />
            <span>Everyone in this file opted in to receive this newsletter, and I can show how and when.</span>
          </label>
          <Button type="submit">Import</Button>
        </Form>
      </Card>
      {report && report.refused.length > 0 ? (
        <Card className="p-6">
          <h2 className="text-lg font-bold text-primary">Refused rows ({report.refusedCount.toLocaleString("en-US")})</h2>
          {report.refusedCount > report.refused.length ? <p className="mt-2 text-sm">The first {report.refused.length} are listed.</p> : null}
          <div className="mt-4 overflow-x-auto" role="region" aria-label="Refused rows" tabIndex={0}>
            <table className="w-full text-left text-sm">
              <thead>
                <tr>
                  <th scope="col" className="py-2 pr-4">Line</th>
                  <th scope="col" className="py-2 pr-4">E-mail</th>
                  <th scope="col" className="py-2">Reason</th>
                </tr>
              </thead>
              <tbody>
                {report.refused.map((row) => (
                  <tr key={row.line} className="border-t border-border">
                    <td className="py-2 pr-4">{row.line}</td>
                    <td className="py-2 pr-4">{row.email}</td>
                    <td className="py-2">{row.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      ) : null}
    </div>
  );
}
