import { CERTIFICATE_TEXTS as T } from "~/lib/consent-evidence-texts";
import { POSTBACK_TEXTS } from "~/lib/postback-texts";
import { MAX_PAGE_URL } from "~/lib/interaction";
import type { Certificate, CertificateEvent } from "~/services/consent/certificate.server";

const show = (value: string | boolean | null | undefined) => (value === null || value === undefined || value === "" ? "—" : String(value));

function Row({ label, value, mono }: { label: string; value: string | boolean | null | undefined; mono?: boolean }) {
  return (
    <>
      <dt className="font-bold">{label}</dt>
      <dd className={mono ? "font-mono text-xs" : undefined}>{show(value)}</dd>
    </>
  );
}

const seconds = (ms: number | null) => (ms === null ? "never" : `${(ms / 1000).toFixed(1)} s`);

/** The person's actions on the form, in words (times since the page started loading). */
function interactionText(event: CertificateEvent) {
  const record = event.interaction;
  if (!record) return T.noInteraction;
  return [
    `page loaded at ${record.loadedMs === null ? "—" : seconds(record.loadedMs)}, its script running at ${seconds(record.hydratedMs)}`,
    `typing: first name ${seconds(record.typingMs.firstName)}, last name ${seconds(record.typingMs.lastName)}${record.typingMs.email === undefined ? "" : `, e-mail ${seconds(record.typingMs.email)}`}, phone ${seconds(record.typingMs.phone)}`,
    `SMS box ticked at ${seconds(record.tickedMs.smsConsent)}, terms box ticked at ${seconds(record.tickedMs.termsConsent)}`,
    `sent at ${seconds(record.submittedMs)} (times since the page started loading)`,
  ].join("; ");
}

function EventSection({ event, head, formHref }: { event: CertificateEvent; head: { seq: number } | null; formHref?: (eventId: number) => string }) {
  const signed = event.chain && head && event.chain.seq <= head.seq;
  // The events a person made by sending a form (not texts, links or staff); the confirmations
  // made on a page (the newsletter's button, the account's code) have a served time and page too.
  const onForm = event.action === "opt_in" || event.action === "email_subscribe";
  const onPage = onForm || event.confirms || event.action === "email_confirm";
  // A text the person sent (STOP, HELP, START, Y or N): what was sent back belongs beside it.
  const answersText = event.channel === "sms" && event.inbound.sid !== null;
  return (
    <section aria-labelledby={`event-${event.id}`} className="certificate-event break-inside-avoid rounded-md border border-border p-4">
      <h2 id={`event-${event.id}`} className="text-xl font-bold text-primary">
        {T.actions[event.action as keyof typeof T.actions] ?? event.action}
        {event.grants || event.confirms ? (
          <span className="ml-2 rounded bg-accent px-2 py-0.5 text-xs font-bold text-accent-foreground">{event.grants ? T.grants : T.confirms}</span>
        ) : null}
      </h2>
      <dl className="mt-3 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm [overflow-wrap:anywhere]">
        <Row label="Time (UTC)" value={event.occurredAt.replace("T", " ").replace("Z", " UTC")} />
        <Row label="Local time" value={event.localTime ? `${event.localTime} (${event.localZone}, from the area code)` : null} />
        <Row label="Name as typed" value={[event.firstName, event.lastName].filter(Boolean).join(" ") || null} />
        <Row label="Number" value={event.phoneE164 ? `${event.phoneE164} (typed “${show(event.phoneRaw)}”)` : null} />
        <Row label="E-mail" value={event.email} />
        <Row label="SMS box" value={event.smsCheckbox === null ? null : event.smsCheckbox ? "ticked" : "not ticked"} />
        <Row label="Terms box" value={event.termsCheckbox === null ? null : event.termsCheckbox ? "ticked" : "not ticked"} />
        {onPage ? <Row label={T.formServed} value={event.formServedAt ? T.formServedAt(event.formServedAt, event.occurredAt) : T.formServedUnknown} /> : null}
        {onForm ? <Row label={T.onTheForm} value={interactionText(event)} /> : null}
        {onPage ? (
          <>
            <dt className="font-bold">{T.formAsServed}</dt>
            <dd className="[overflow-wrap:anywhere]">
              {event.servedPage?.altered ? (
                <strong className="text-destructive" data-testid="form-altered">
                  {T.formAlteredShort} ({event.servedPage.documentSha256})
                </strong>
              ) : event.servedPage ? (
                <span className="font-mono text-xs">{T.formDocument(event.servedPage.documentSha256, event.servedPage.pageSha256)}</span>
              ) : (
                T.formNotKept
              )}
              {event.servedPage?.pageSha256 && formHref ? (
                <>
                  {" "}
                  <a href={formHref(event.id)} className="text-accent-strong underline print:hidden" target="_blank" rel="noopener">
                    {T.viewForm}
                  </a>
                </>
              ) : null}
            </dd>
          </>
        ) : null}
        <Row label="Source" value={event.source} />
        <Row label="IP address" value={event.ip} />
        <Row label="User agent" value={event.userAgent} />
        <Row label="Language" value={event.acceptLanguage} />
        <Row label="Page" value={event.pageUrl} />
        {event.pageUrlNote ? (
          <Row label={T.pageNote} value={event.pageUrlNote === "origin-only" ? T.pageOriginOnly : T.pageCut(event.pageUrlNote.cut, event.pageUrlNote.cut === MAX_PAGE_URL)} />
        ) : null}
        <Row label="Referrer" value={event.referrer} />
        <Row label="Click id" value={event.clickId} />
        <Row label="Do-Not-Call check" value={event.dnc.result ? `${event.dnc.result} (policy ${show(event.dnc.policy)}, registry data of ${show(event.dnc.dataDate)})` : null} />
        {event.inbound.sid ? <Row label="Text received" value={`“${show(event.inbound.body)}” (${event.inbound.sid})`} /> : null}
        {event.emailReport ? <Row label={T.emailReport} value={T.emailReportText(event.emailReport)} /> : null}
        <Row label="Chain" value={event.chain ? `seq ${event.chain.seq}, sealed ${event.chain.sealedAt}; ${signed ? T.signed : T.notYetSigned}` : T.notYetSealed} />
        {event.chain ? <Row label="Hash" value={event.chain.hash} mono /> : null}
      </dl>
      {event.consentText ? (
        <div className="mt-3">
          <p className="text-sm font-bold">
            {T.disclosure} (version {show(event.consentVersion)}, SHA-256 <span className="font-mono text-xs [overflow-wrap:anywhere]">{show(event.consentTextSha256)}</span>)
          </p>
          <blockquote className="mt-1 border-l-4 border-border pl-3 text-sm">{event.consentText}</blockquote>
          {event.termsText ? (
            <>
              <p className="mt-2 text-sm font-bold">{T.terms} (version {show(event.termsVersion)})</p>
              <blockquote className="mt-1 border-l-4 border-border pl-3 text-sm">{event.termsText}</blockquote>
            </>
          ) : null}
        </div>
      ) : null}
      {event.texts.length > 0 ? (
        <div className="mt-3">
          <p className="text-sm font-bold">{answersText ? T.textsAnswered : T.textsSent}</p>
          <ul className="certificate-texts mt-1 space-y-1 text-sm [overflow-wrap:anywhere]">
            {event.texts.map((text) => (
              <li key={`${text.kind}-${text.createdAt}`}>
                “{text.body}” — {T.textKinds[text.kind] ?? text.kind}; {T.textDelivery(text)}
              </li>
            ))}
          </ul>
        </div>
      ) : answersText ? (
        <p className="mt-3 text-sm">{T.noReply}</p>
      ) : null}
    </section>
  );
}

/** The certificate as a page to read and print; the same on the admin page and behind a share link. */
export function ConsentCertificateView({
  certificate,
  downloadHref,
  formHref,
  children,
}: {
  certificate: Certificate;
  downloadHref?: string;
  /** The address of an event's form as served (the admin's, or the share link's). */
  formHref?: (eventId: number) => string;
  children?: React.ReactNode;
}) {
  const person = certificate.subscriber;
  return (
    <article aria-labelledby="certificate-heading" className="consent-certificate space-y-6">
      <header className="space-y-2">
        <h1 id="certificate-heading" className="text-3xl font-extrabold text-primary">
          {T.title}
        </h1>
        <p className="text-muted-foreground">{T.intro}</p>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm [overflow-wrap:anywhere]">
          <Row label="Subscriber" value={person.id} mono />
          <Row label="Name" value={[person.firstName, person.lastName].filter(Boolean).join(" ") || null} />
          <Row label={person.channel === "sms" ? "Number" : "E-mail"} value={person.phoneE164 ?? person.email} />
          <Row label="Status now" value={person.status} />
          <Row label="Issued" value={certificate.issuedAt} />
          <Row
            label="Signed chain head"
            value={certificate.chainHead ? `seq ${certificate.chainHead.seq}, ${certificate.chainHead.signedAt}, key ${certificate.chainHead.keyId}` : null}
          />
          {certificate.chainHead ? <Row label={T.headKey} value={certificate.chainHead.publicKey ?? T.headKeyUnverified} mono /> : null}
          <Row label={T.certificateKey} value={certificate.signingKey.publicKey} mono />
        </dl>
        {downloadHref ? (
          <p className="print:hidden">
            <a href={downloadHref} className="text-accent-strong underline" download>
              {T.download}
            </a>
          </p>
        ) : null}
        {children}
      </header>
      {certificate.events.length === 0 ? <p>{T.noEvents}</p> : null}
      {certificate.events.map((event) => (
        <EventSection key={event.id} event={event} head={certificate.chainHead} formHref={formHref} />
      ))}
      {certificate.postbacks.length > 0 ? (
        <section aria-labelledby="conversion-postbacks" className="break-inside-avoid rounded-md border border-border p-4">
          <h2 id="conversion-postbacks" className="text-xl font-bold text-primary">
            {POSTBACK_TEXTS.heading}
          </h2>
          <p className="mt-2 text-sm text-muted-foreground">{POSTBACK_TEXTS.intro}</p>
          <ul className="certificate-postbacks mt-3 space-y-1 text-sm [overflow-wrap:anywhere]">
            {certificate.postbacks.map((postback, index) => (
              <li key={index}>
                {POSTBACK_TEXTS.events[postback.event] ?? postback.event}, {postback.occurredAt.replace("T", " ").replace("Z", " UTC")}: {POSTBACK_TEXTS.state(postback)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {certificate.rnd.length > 0 ? (
        <section aria-labelledby="rnd-answers" className="break-inside-avoid rounded-md border border-border p-4">
          <h2 id="rnd-answers" className="text-xl font-bold text-primary">
            {T.rndHeading}
          </h2>
          <p className="mt-2 text-sm text-muted-foreground">{T.rndIntro}</p>
          <div className="mt-3 overflow-x-auto" role="region" aria-label={T.rndTable} tabIndex={0}>
            <table className="w-full text-left text-sm">
              <thead>
                <tr>
                  <th scope="col" className="py-1 pr-4">Asked about</th>
                  <th scope="col" className="py-1 pr-4">Answer</th>
                  <th scope="col" className="py-1 pr-4">Received (UTC)</th>
                  <th scope="col" className="py-1">From</th>
                </tr>
              </thead>
              <tbody>
                {certificate.rnd.map((answer, index) => (
                  <tr key={index} className="border-t border-border">
                    <td className="py-1 pr-4">{answer.askedDate}</td>
                    <td className="py-1 pr-4">{T.rndAnswers[answer.answer]}</td>
                    <td className="py-1 pr-4">{answer.answeredAt.replace("T", " ").slice(0, 19)}</td>
                    <td className="py-1">{answer.source === "api" ? "query API" : `results file ${answer.fileName ?? ""}`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
    </article>
  );
}
