import { Clock, Mail, MapPin, Phone } from "lucide";
import { Icon } from "~/components/ui/icon";
import type { Route } from "./+types/contact";
import { withActionRetryAfter } from "~/http/route-headers";
import { telHref } from "~/components/site/footer";
import { ContactForm } from "~/components/site/contact-form";
import { JsonLd } from "~/components/site/json-ld";
import { Card } from "~/components/ui/card";
import { REPLY_PROMISE } from "~/config/site";
import { contactAction } from "~/http/contact.server";
import { CONTACT_FAILED } from "~/lib/notice-fallbacks";
import { pageMeta } from "~/lib/route-meta";
import { breadcrumbJsonLd } from "~/lib/seo";
import { useSiteConfig } from "~/root";

export function action({ request }: Route.ActionArgs) {
  return contactAction(request);
}

/** A lost connection shows a notice instead of an error page. */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  try {
    return await serverAction();
  } catch {
    return { form: "contact" as const, ok: false, notice: CONTACT_FAILED };
  }
}

// A limited post (429) says when to try again.
export const headers: Route.HeadersFunction = (args) => withActionRetryAfter(args);

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Contact Us",
    description: "Questions about our articles, the newsletter or SMS market alerts? Send us a message. We reply within 24 hours on business days.",
    path: "/contact",
  });

const FAQS = [
  {
    question: "How do I stop the SMS market alerts?",
    answer: "Reply STOP to any message and you will receive one confirmation and no further texts. Reply HELP for help at any time.",
  },
  {
    question: "Is your content investment advice?",
    answer: "No. Everything we publish is educational and general. We are not a licensed financial advisor; please consult a qualified professional about your own situation.",
  },
  {
    question: "How often do you publish?",
    answer: "We publish 3-4 posts every week, and send market alerts only when something important happens.",
  },
  {
    question: "Do you share my phone number or e-mail?",
    answer: "Never. We do not sell, rent or share your phone number or e-mail address with third parties for their marketing.",
  },
] as const;

export default function Contact({ actionData }: Route.ComponentProps) {
  const site = useSiteConfig();
  return (
    <>
      <JsonLd data={breadcrumbJsonLd(site, [{ name: "Contact", path: "/contact" }])} />
      <section className="bg-primary py-14 text-center text-white">
        <div className="mx-auto max-w-3xl px-4">
          <h1 className="text-4xl font-extrabold md:text-5xl">Contact Us</h1>
          <p className="mt-4 text-lg text-on-primary-muted">
            Have a question about an article, the newsletter or our market alerts? We would like to hear from you.{" "}
            {REPLY_PROMISE}
          </p>
        </div>
      </section>
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-14 lg:grid-cols-3">
        <section className="lg:col-span-2" aria-labelledby="form-heading">
          <Card className="p-6 md:p-8">
            <h2 id="form-heading" className="text-2xl font-extrabold text-primary">
              Send Us a Message
            </h2>
            <p className="mb-6 mt-2 text-sm text-muted-foreground">Fields marked * are required.</p>
            <ContactForm serverResult={actionData} />
          </Card>
        </section>
        <aside className="space-y-6" aria-label="Other ways to reach us">
          <Card className="p-6">
            <Icon node={Mail} className="h-8 w-8 text-accent" />
            <h2 className="mt-3 text-lg font-bold text-primary">Email</h2>
            <a href={`mailto:${site.email}`} className="mt-1 block font-semibold text-accent-strong underline">
              {site.email}
            </a>
          </Card>
          <Card className="p-6">
            <Icon node={Phone} className="h-8 w-8 text-accent" />
            <h2 className="mt-3 text-lg font-bold text-primary">Toll-Free Phone</h2>
            <a href={telHref(site.phone)} className="mt-1 block font-semibold text-accent-strong underline">
              {site.phone}
            </a>
          </Card>
          <Card className="p-6">
            <Icon node={Clock} className="h-8 w-8 text-accent" />
            <h2 className="mt-3 text-lg font-bold text-primary">Response Time</h2>
            <p className="mt-1 text-muted-foreground">{REPLY_PROMISE}</p>
          </Card>
          <Card className="p-6">
            <Icon node={MapPin} className="h-8 w-8 text-accent" />
            <h2 className="mt-3 text-lg font-bold text-primary">Location</h2>
            <p className="mt-1 text-muted-foreground">United States</p>
          </Card>
        </aside>
      </div>
      <section className="bg-muted py-14" aria-labelledby="faq-heading">
        <div className="mx-auto max-w-3xl px-4">
          <h2 id="faq-heading" className="text-center text-3xl font-extrabold text-primary">
            Frequently Asked Questions
          </h2>
          <div className="mt-8 space-y-4">
            {FAQS.map((faq) => (
              <details key={faq.question} className="group rounded-lg border border-border bg-card p-5">
                <summary className="cursor-pointer list-none font-bold text-primary">
                  <span aria-hidden="true" className="mr-2 inline-block transition-transform group-open:rotate-90">
                    ›
                  </span>
                  {faq.question}
                </summary>
                <p className="mt-3 leading-relaxed text-muted-foreground">{faq.answer}</p>
              </details>
            ))}
          </div>
        </div>
      </section>
    </>
  );
}
