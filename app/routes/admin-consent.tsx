import { data, Form } from "react-router";
import { sql } from "drizzle-orm";
import type { Route } from "./+types/admin-consent";
import { requireAdmin } from "~/auth/guards.server";
import { Button } from "~/components/ui/button";
import { NoticeBanner } from "~/components/ui/notice-banner";
import { getDb } from "~/db/database.server";
import { toNumber } from "~/db/client.server";
import { readFormOrAnswer } from "~/http/body.server";
import { getEnv } from "~/http/env.server";
import { CONSENT_CHAIN_TEXTS as T } from "~/lib/consent-evidence-texts";
import type { Notice } from "~/lib/notices";
import { pageMeta } from "~/lib/route-meta";
import { headSigningKey, latestSignedHead, verifyConsentChain } from "~/services/consent/chain.server";
import { retiredKeysFromEnv, signerFromEnv } from "~/services/consent/signing.server";
import { witnessFromEnv } from "~/services/consent/witness.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const db = await getDb();
  const env = getEnv();
  const signer = signerFromEnv(env);
  const retiredKeys = retiredKeysFromEnv(env);
  const head = await latestSignedHead(db);
  const counts = await db.execute<{ sealed: unknown; pending: unknown }>(
    sql`SELECT (SELECT count(*) FROM consent_chain) AS sealed, (SELECT count(DISTINCT event_id) FROM consent_chain_pending) AS pending`,
  );
  return {
    sealed: toNumber(counts.rows[0]?.sealed),
    pending: toNumber(counts.rows[0]?.pending),
    head: head
      ? { seq: head.seq, hash: head.hash, keyId: head.keyId, keyStatus: headSigningKey(head, signer, retiredKeys)?.status ?? null, signedAt: head.signedAt.toISOString() }
      : null,
    currentKey: { keyId: signer.keyId, publicKey: signer.publicKey, publicKeyPem: signer.publicKeyPem },
    witness: { path: witnessFromEnv(env).path, mailTo: env.CONSENT_WITNESS_EMAIL ?? null },
    retiredKeys: retiredKeys.map(({ keyId, publicKey }) => ({ keyId, publicKey })),
  };
}

type ActionData = { notice: Notice; problem?: { seq: number | null; eventId: number | null; kind: string }; acknowledged?: string[] };

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const body = await readFormOrAnswer(request);
  if ("answer" in body) return body.answer;
  if (body.form.intent !== "verify") return data({ notice: { title: "Not Understood", description: "This form has one button: check the chain.", variant: "error" } } satisfies ActionData, { status: 400 });
  const env = getEnv();
  const result = await verifyConsentChain(await getDb(), signerFromEnv(env), retiredKeysFromEnv(env), witnessFromEnv(env));
  const witnessed = T.witnessLastMatching(result.witness?.lastMatching?.seq ?? null, result.witness?.lastMatching?.signedAt ?? null);
  const acknowledged = result.acknowledged.map((ack) => T.acknowledged(ack.at, ack.actor, ack.reason, ack.broken?.seq ?? null, ack.resume.seq));
  if (result.ok) {
    const signedWith = result.headKey ? ` ${T.headSignedWith(result.headKey.status, result.headKey.keyId)}` : "";
    return data({
      notice: { title: T.okTitle, description: `${T.okDescription(result.checked, result.pending, result.heads.database, result.pagesChecked)}${signedWith} ${witnessed}`, variant: "success" },
      acknowledged,
    } satisfies ActionData);
  }
  const problem = result.problem!;
  return data({
    notice: { title: T.failedTitle, description: `${problem.detail}. ${result.checked.toLocaleString("en-US")} rows before it match.`, variant: "error" },
    problem: { seq: problem.seq, eventId: problem.eventId, kind: problem.kind },
    acknowledged,
  } satisfies ActionData);
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: T.title, description: T.description, path: "/admin/consent", noindex: true });

export default function AdminConsent({ loaderData, actionData }: Route.ComponentProps) {
  const { head, currentKey, retiredKeys } = loaderData;
  return (
    <section aria-labelledby="consent-heading" className="space-y-6">
      <h1 id="consent-heading" className="text-3xl font-extrabold text-primary">
        {T.title}
      </h1>
      <p className="max-w-3xl text-muted-foreground">{T.intro}</p>
      {actionData && "notice" in actionData ? <NoticeBanner notice={actionData.notice} /> : null}
      {actionData && "acknowledged" in actionData && actionData.acknowledged && actionData.acknowledged.length > 0 ? (
        <section aria-labelledby="acknowledged-heading" className="max-w-3xl rounded-md border-l-4 border-destructive bg-destructive-soft p-4 text-sm text-destructive">
          <h2 id="acknowledged-heading" className="font-bold">
            {T.acknowledgedTitle}
          </h2>
          <ul className="mt-1 list-disc space-y-1 pl-5">
            {actionData.acknowledged.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
        </section>
      ) : null}
      <dl className="grid max-w-3xl grid-cols-[auto_1fr] gap-x-6 gap-y-2 [overflow-wrap:anywhere]">
        <dt className="font-bold">Sealed events</dt>
        <dd data-testid="chain-sealed">{loaderData.sealed.toLocaleString("en-US")}</dd>
        <dt className="font-bold">Queued for sealing</dt>
        <dd>{loaderData.pending.toLocaleString("en-US")}</dd>
        <dt className="font-bold">Signed head</dt>
        <dd>
          {head
            ? `seq ${head.seq.toLocaleString("en-US")}, signed ${head.signedAt.slice(0, 19).replace("T", " ")} UTC with key ${head.keyId} (${T.headKeyStatus(head.keyStatus)})`
            : T.noHead}
        </dd>
        {head ? (
          <>
            <dt className="font-bold">Head hash</dt>
            <dd className="font-mono text-sm">{head.hash}</dd>
          </>
        ) : null}
        <dt className="font-bold">{T.witness}</dt>
        <dd>
          {T.witnessDescription(loaderData.witness.path)} {T.witnessMail(loaderData.witness.mailTo)}
        </dd>
        <dt className="font-bold">{T.currentKey}</dt>
        <dd>
          <ConsentKey keyId={currentKey.keyId} publicKey={currentKey.publicKey} />
          <pre className="mt-1 whitespace-pre-wrap font-mono text-xs">{currentKey.publicKeyPem}</pre>
        </dd>
        <dt className="font-bold">{T.retiredKeys}</dt>
        <dd>
          {retiredKeys.length === 0 ? (
            T.noRetiredKeys
          ) : (
            <ul className="space-y-1">
              {retiredKeys.map((key) => (
                <li key={key.keyId}>
                  <ConsentKey keyId={key.keyId} publicKey={key.publicKey} />
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
      <Form method="post">
        <input type="hidden" name="intent" value="verify" />
        <Button type="submit">{T.verify}</Button>
      </Form>
    </section>
  );
}

/** A key as CONSENT_RETIRED_PUBLIC_KEYS takes it: its id, and the raw public key in base64 to copy there after a rotation. */
function ConsentKey({ keyId, publicKey }: { keyId: string; publicKey: string }) {
  return (
    <span className="block">
      id <span className="font-mono text-sm">{keyId}</span>, public key <span className="font-mono text-sm">{publicKey}</span>
    </span>
  );
}
