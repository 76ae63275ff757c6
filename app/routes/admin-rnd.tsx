import { data, Form } from "react-router";
import type { Route } from "./+types/admin-rnd";
import { requireAdmin } from "~/auth/guards.server";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { getDb } from "~/db/database.server";
import { getEnv } from "~/http/env.server";
import { readTextUpload } from "~/http/text-upload.server";
import type { Notice } from "~/lib/notices";
import { pageMeta } from "~/lib/route-meta";
import { rndPolicyFromEnv } from "~/services/consent/rnd-settings.server";
import { importRndResults, rndUploadRows, type RndImportReport } from "~/services/consent/rnd.server";

/** A results file for a quarter of a million numbers is about 8 MB. */
const RESULTS_MAX_BYTES = 40 * 1024 * 1024;

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const env = getEnv();
  const policy = rndPolicyFromEnv(env);
  return {
    policy,
    api: Boolean(env.RND_API_URL),
    due: (await rndUploadRows(await getDb(), policy, new Date())).length,
  };
}

type Answer = { notice: Notice; report?: RndImportReport };

export async function action({ request }: Route.ActionArgs) {
  const user = await requireAdmin(request);
  const fail = (status: number, description: string) =>
    data<Answer>({ notice: { title: "Not Imported", description, variant: "error" } }, { status });
  const upload = await readTextUpload(request, RESULTS_MAX_BYTES, "Choose the results file.");
  if (!upload.ok) return fail(upload.status, upload.message);
  const report = await importRndResults(await getDb(), upload.text, upload.fileName.slice(0, 200), user.email);
  if (report.recorded === 0)
    return data<Answer>(
      {
        notice: {
          title: "Not Imported",
          description: "No line of the file could be read as number, date, answer.",
          variant: "error",
        },
        report,
      },
      { status: 400 },
    );
  return data<Answer>({
    notice: {
      title: "Imported",
      description: `${report.recorded.toLocaleString("en-US")} answers recorded (${report.yes.toLocaleString("en-US")} yes, ${report.no.toLocaleString("en-US")} no, ${report.noData.toLocaleString("en-US")} no data); ${report.lapsed.toLocaleString("en-US")} consents lapsed; ${report.refusedCount.toLocaleString("en-US")} lines refused.`,
      variant: report.refusedCount > 0 ? "info" : "success",
    },
    report,
  });
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Reassigned Numbers",
    description: "Reassigned Numbers Database checks.",
    path: "/admin/rnd",
    noindex: true,
  });

export default function AdminRnd({ loaderData, actionData }: Route.ComponentProps) {
  const { policy, api, due } = loaderData;
  const report = actionData?.report;
  return (
    <div className="space-y-8">
      <h1 className="text-3xl font-extrabold text-primary">Reassigned Numbers Database</h1>
      {actionData ? <NoticeBanner notice={actionData.notice} /> : null}
      <Card className="max-w-3xl p-6">
        <h2 className="text-lg font-bold text-primary">The rule</h2>
        <p className="mt-2 text-sm">
          A market alert goes to a subscriber whose consent is older than {policy.checkAfterDays} days only after the
          FCC&rsquo;s Reassigned Numbers Database has answered &ldquo;no&rdquo; (not disconnected) for the consent date
          or later, in the last {policy.answerMaxAgeDays} days. A &ldquo;yes&rdquo; ends that consent (the subscriber
          shows as lapsed until they opt in again). A &ldquo;no data&rdquo; answer{" "}
          {policy.noData === "skip" ? "skips the person (RND_NO_DATA=skip)" : "lets the text go (RND_NO_DATA=send)"}.
        </p>
        <p className="mt-2 text-sm" data-testid="rnd-mode">
          {api
            ? "The query API is configured: numbers are asked right before their text goes."
            : "No query API is configured (RND_API_URL): use the bulk files below."}
        </p>
      </Card>
      <Card className="max-w-3xl p-6">
        <h2 className="text-lg font-bold text-primary">Bulk upload</h2>
        <p className="mt-2 text-sm" data-testid="rnd-due">
          {due.toLocaleString("en-US")} active SMS subscribers need an answer now or within a week.
        </p>
        <p className="mt-3">
          <a href="/admin/rnd/upload.csv" className="font-semibold text-primary underline" download>
            Download their numbers and consent dates (CSV)
          </a>
        </p>
        <Form method="post" encType="multipart/form-data" reloadDocument className="mt-6 space-y-4">
          <div>
            <label htmlFor="file" className="mb-1.5 block text-sm font-semibold">
              Results file from the RND (number, date, answer per line)
            </label>
            <input
              id="file"
              name="file"
              type="file"
              accept=".csv,.txt,text/csv,text/plain"
              required
              className="block w-full text-sm"
            />
          </div>
          <Button type="submit">Import results</Button>
        </Form>
      </Card>
      {report && report.refused.length > 0 ? (
        <Card className="p-6">
          <h2 className="text-lg font-bold text-primary">
            Refused lines ({report.refusedCount.toLocaleString("en-US")})
          </h2>
          {report.refusedCount > report.refused.length ? (
            <p className="mt-2 text-sm">The first {report.refused.length} are listed.</p>
          ) : null}
          <div className="mt-4 overflow-x-auto" role="region" aria-label="Refused lines" tabIndex={0}>
            <table className="w-full text-left text-sm">
              <thead>
                <tr>
                  <th scope="col" className="py-2 pr-4">
                    Line
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    Text
                  </th>
                  <th scope="col" className="py-2">
                    Reason
                  </th>
                </tr>
              </thead>
              <tbody>
                {report.refused.map((row) => (
                  <tr key={row.line} className="border-t border-border">
                    <td className="py-2 pr-4">{row.line}</td>
                    <td className="py-2 pr-4">
                      <code>{row.text}</code>
                    </td>
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
