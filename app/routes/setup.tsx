import { eq } from "drizzle-orm";
import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/setup";
import { adminExists, createOrPromoteAdmin, passwordProblem } from "~/auth/admin-account.server";
import { consumeSetupToken, restoreSetupToken, setupTokenMatches } from "~/auth/first-admin-setup.server";
import { getAuth } from "~/auth/instance.server";
import { Field } from "~/components/forms/field";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { getDb } from "~/db/database.server";
import { user } from "~/db/schema";
import { readFormOrAnswer } from "~/http/body.server";
import { logger } from "~/http/logger.server";
import { NOTICES } from "~/lib/notices";
import { pageMeta } from "~/lib/route-meta";

/** Without the start-up token, or once an admin exists, there is no such page. */
async function setupOpen(token: string | null | undefined) {
  return setupTokenMatches(token) && !(await adminExists(await getDb()));
}

export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  if (!(await setupOpen(token))) throw data(null, { status: 404 });
  return { token: token! };
}

type Errors = { email?: string; password?: string };

export async function action({ request }: Route.ActionArgs) {
  const body = await readFormOrAnswer(request);
  if ("answer" in body) return body.answer;
  const { token, email = "", password = "" } = body.form;
  if (!(await setupOpen(token))) throw data(null, { status: 404 });

  const errors: Errors = {};
  const address = email.trim().toLowerCase();
  const problem = passwordProblem(password);
  if (problem) errors.password = problem;
  if (!address.includes("@")) errors.email = "Enter a valid email address.";
  else {
    const [existing] = await (await getDb()).select({ id: user.id }).from(user).where(eq(user.email, address));
    if (existing) errors.email = "An account with this email exists already. Choose another address, or make it an admin with npm run admin:create.";
  }
  if (errors.email || errors.password) return data({ errors, email }, { status: 400 });

  // Taken before the account is made: a second request with the same token gets a 404.
  if (!consumeSetupToken(token)) throw data(null, { status: 404 });
  const result = await createOrPromoteAdmin(await getDb(), await getAuth(), { email: address, password, actor: "setup" }).catch((error: unknown) => {
    restoreSetupToken(token!);
    throw error;
  });
  if (!result.ok) {
    restoreSetupToken(token!);
    return data({ errors: { [result.field]: result.message } as Errors, email }, { status: 400 });
  }
  logger.info({ email: result.email }, "first admin created at /setup");
  throw redirect("/auth?notice=adminCreated");
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Create the First Admin", description: "Create the site’s first admin account.", path: "/setup", noindex: true });

export default function Setup({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData && "errors" in actionData ? actionData : undefined;
  const errors: Errors = answer?.errors ?? {};
  return (
    <section className="mx-auto max-w-md px-4 py-16">
      <Card className="p-8">
        <h1 className="text-center text-3xl font-extrabold text-primary">Create the First Admin</h1>
        <p className="mt-2 text-center text-muted-foreground">
          This page works once. The account is verified at once and can use the admin area after signing in.
        </p>
        {errors.email || errors.password ? <NoticeBanner notice={NOTICES.setupInvalid} className="mt-6" /> : null}
        <Form method="post" className="mt-6 space-y-4">
          <input type="hidden" name="token" value={loaderData.token} />
          <Field label="Email" name="email" type="email" autoComplete="email" required defaultValue={answer?.email} error={errors.email} />
          <Field label="Password" name="password" type="password" autoComplete="new-password" required minLength={6} maxLength={128} error={errors.password} />
          <Button type="submit" className="w-full" size="lg">
            Create admin account
          </Button>
        </Form>
      </Card>
    </section>
  );
}
