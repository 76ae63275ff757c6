import { data, Form } from "react-router";
import type { Route } from "./+types/admin-dnc";
import { requireAdmin } from "~/auth/guards.server";
import { Field } from "~/components/forms/field";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { getDb } from "~/db/database.server";
import { readFormOrAnswer } from "~/http/body.server";
import type { Notice } from "~/lib/notices";
import { pageMeta } from "~/lib/route-meta";
import { changeInternalDnc, dncStatus } from "~/services/dnc.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return dncStatus(await getDb());
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireAdmin(request);
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

export default function AdminDnc({ loaderData, actionData }: Route.ComponentProps) {
  const { counts, dataDate, ageDays, maxAgeDays, stale } = loaderData;
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
            ? `The registry data is ${ageDays} days old. The law expects data no older than ${maxAgeDays} days: download a new copy and import it (npm run dnc:import).`
            : "No registry data has been imported. Download your area codes from the National Do Not Call Registry and import them (npm run dnc:import)."}
        </p>
      ) : null}
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
