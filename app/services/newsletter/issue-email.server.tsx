import { Body, Container, Head, Heading, Hr, Html, Img, Link, Preview, Section, Text } from "@react-email/components";
import { render } from "@react-email/render";
import { Marked } from "marked";
import { sanitizeBodyHtml } from "~/lib/html-sanitizer.server";

/** Filled in per recipient after the issue is rendered once (rendering per recipient costs minutes). */
export const RECIPIENT_PLACEHOLDERS = {
  unsubscribeUrl: "%%UNSUBSCRIBE_URL%%",
  preferencesUrl: "%%PREFERENCES_URL%%",
} as const;

export type DigestArticle = { title: string; excerpt: string; url: string; imageUrl: string; imageAlt: string; category: string };

export type IssueContent = {
  siteName: string;
  siteUrl: string;
  postalAddress: string;
  subject: string;
  previewText: string;
  introMarkdown: string;
  articles: DigestArticle[];
};

const marked = new Marked({ gfm: true, async: false });

const COLORS = { navy: "#0b2447", red: "#b22234", text: "#1f2937", muted: "#4b5563", line: "#e5e7eb", page: "#f3f4f6" };
const font = 'Georgia, "Times New Roman", serif';
const sans = "Arial, Helvetica, sans-serif";
/** The font list inside a double-quoted style attribute written by hand: its quotes must be single. */
const fontInAttribute = font.replaceAll('"', "'");

/**
 * Inline styles on the intro's elements: Gmail drops <style> blocks in some views and Outlook
 * ignores inherited CSS on paragraphs.
 */
function introHtml(markdown: string) {
  // Raw HTML in the intro gets the article bodies' allowlist (decision 061): no script or handler reaches an inbox.
  const html = sanitizeBodyHtml(marked.parse(markdown) as string);
  return html
    .replace(/<p>/g, `<p style="margin:0 0 16px;font-family:${sans};font-size:16px;line-height:24px;color:${COLORS.text}">`)
    .replace(/<a href=/g, `<a data-text-note="true" style="color:${COLORS.red};text-decoration:underline" href=`)
    .replace(/<(ul|ol)>/g, `<$1 style="margin:0 0 16px;padding-left:24px;font-family:${sans};font-size:16px;line-height:24px;color:${COLORS.text}">`)
    .replace(/<h([1-3])>/g, `<h$1 style="margin:24px 0 12px;font-family:${fontInAttribute};font-size:20px;line-height:28px;color:${COLORS.navy}">`);
}

function IssueEmail({ content }: { content: IssueContent }) {
  return (
    <Html lang="en" dir="ltr">
      <Head>
        <title>{content.subject}</title>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{content.previewText || content.subject}</Preview>
      <Body style={{ backgroundColor: COLORS.page, margin: 0, padding: "24px 0" }}>
        <Container style={{ backgroundColor: "#ffffff", maxWidth: "600px", width: "100%", border: `1px solid ${COLORS.line}` }}>
          <Section style={{ backgroundColor: COLORS.navy, padding: "20px 32px", borderBottom: `4px solid ${COLORS.red}` }}>
            <Text style={{ margin: 0, fontFamily: font, fontSize: "24px", fontWeight: 700, color: "#ffffff" }}>{content.siteName}</Text>
          </Section>
          <Section style={{ padding: "32px 32px 8px" }}>
            <Heading as="h1" style={{ margin: "0 0 20px", fontFamily: font, fontSize: "28px", lineHeight: "34px", color: COLORS.navy }}>
              {content.subject}
            </Heading>
            {content.introMarkdown.trim() ? <div data-text-links="notes" dangerouslySetInnerHTML={{ __html: introHtml(content.introMarkdown) }} /> : null}
          </Section>
          {content.articles.length > 0 ? (
            <Section style={{ padding: "0 32px" }}>
              <Heading as="h2" style={{ margin: "8px 0 16px", fontFamily: sans, fontSize: "13px", letterSpacing: "1px", textTransform: "uppercase", color: COLORS.red }}>
                Latest insights
              </Heading>
              {content.articles.map((article) => (
                <Section key={article.url} style={{ marginBottom: "28px" }}>
                  {/* The plain-text part gives the article's address once, after "Read the article". */}
                  <Link href={article.url} data-skip-in-text="true">
                    <Img src={article.imageUrl} alt={article.imageAlt} width="536" height="302" style={{ display: "block", width: "100%", maxWidth: "536px", height: "auto", border: 0 }} />
                  </Link>
                  <Text style={{ margin: "12px 0 4px", fontFamily: sans, fontSize: "12px", textTransform: "uppercase", color: COLORS.muted }}>{article.category}</Text>
                  <Heading as="h3" style={{ margin: "0 0 8px", fontFamily: font, fontSize: "22px", lineHeight: "28px" }}>
                    <Link href={article.url} style={{ color: COLORS.navy, textDecoration: "none" }} data-text-href="none">
                      {article.title}
                    </Link>
                  </Heading>
                  <Text style={{ margin: "0 0 8px", fontFamily: sans, fontSize: "15px", lineHeight: "22px", color: COLORS.text }}>{article.excerpt}</Text>
                  <Link href={article.url} style={{ fontFamily: sans, fontSize: "15px", fontWeight: 700, color: COLORS.red }}>
                    Read the article →
                  </Link>
                </Section>
              ))}
            </Section>
          ) : null}
          {/* The rule sits inside the padding: a 100% wide rule with side margins is wider than a phone. */}
          <Section style={{ padding: "0 32px" }}>
            <Hr style={{ borderColor: COLORS.line, margin: "8px 0" }} />
          </Section>
          <Section style={{ padding: "16px 32px 32px" }}>
            {/* The address once, after a colon and at the end of its line: the plain-text part prints a
                link whose text is its address only once, and nothing sticks to it. */}
            <Text style={{ margin: "0 0 8px", fontFamily: sans, fontSize: "12px", lineHeight: "18px", color: COLORS.muted }}>
              You receive this e-mail because you subscribed to the {content.siteName} newsletter. Educational content, not
              investment advice. Our website:
              <br />
              <Link href={content.siteUrl} style={{ color: COLORS.muted }}>
                {content.siteUrl}
              </Link>
            </Text>
            <Text style={{ margin: "0 0 8px", fontFamily: sans, fontSize: "12px", lineHeight: "18px", color: COLORS.muted }}>
              <Link href={RECIPIENT_PLACEHOLDERS.unsubscribeUrl} style={{ color: COLORS.muted, textDecoration: "underline" }}>
                Unsubscribe
              </Link>{" "}
              ·{" "}
              <Link href={RECIPIENT_PLACEHOLDERS.preferencesUrl} style={{ color: COLORS.muted, textDecoration: "underline" }}>
                Manage your subscription
              </Link>
            </Text>
            <Text style={{ margin: 0, fontFamily: sans, fontSize: "12px", lineHeight: "18px", color: COLORS.muted }} data-testid="postal-address">
              {content.siteName} · {content.postalAddress}
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

export type RenderedIssue = { html: string; text: string };

type TextBuilder = {
  openBlock(options: { leadingLineBreaks: number }): void;
  closeBlock(options: { trailingLineBreaks: number }): void;
  addInline(text: string, options?: { noWordTransform?: boolean }): void;
  addLineBreak(): void;
};
type TextElement = { attribs?: Record<string, string>; children: unknown[] };
type Walk = (nodes: unknown[], builder: TextBuilder) => void;

/**
 * How the plain-text part writes links (html-to-text, through React Email's render): a link in the
 * intro's running text becomes a numbered note, "the Fed [1]", and the intro ends with "[1]" and
 * the address on a line of its own. Written inline, the address would be followed by the
 * sentence's full stop or comma, which mail and SMS apps take into the link. An article's title
 * link is its text only: the article's address follows "Read the article".
 */
function plainTextOptions() {
  let notes: string[] | null = null;
  return {
    formatters: {
      linkNotes(element: TextElement, walk: Walk, builder: TextBuilder) {
        notes = [];
        builder.openBlock({ leadingLineBreaks: 2 });
        walk(element.children, builder);
        builder.closeBlock({ trailingLineBreaks: 2 });
        if (notes.length > 0) {
          builder.openBlock({ leadingLineBreaks: 2 });
          notes.forEach((href, index) => {
            if (index > 0) builder.addLineBreak();
            builder.addInline(`[${index + 1}] ${href}`, { noWordTransform: true });
          });
          builder.closeBlock({ trailingLineBreaks: 2 });
        }
        notes = null;
      },
      noteLink(element: TextElement, walk: Walk, builder: TextBuilder) {
        walk(element.children, builder);
        const href = element.attribs?.href?.replace(/^mailto:/, "");
        if (!href || !notes) return;
        notes.push(href);
        builder.addInline(` [${notes.length}]`, { noWordTransform: true });
      },
    },
    selectors: [
      { selector: 'div[data-text-links="notes"]', format: "linkNotes" },
      { selector: "a[data-text-note]", format: "noteLink" },
      { selector: "a[data-text-href=none]", format: "anchor", options: { ignoreHref: true } },
    ],
  };
}

/** Renders an issue once: HTML for every client and its plain-text part, with recipient placeholders. */
export async function renderIssue(content: IssueContent): Promise<RenderedIssue> {
  const element = <IssueEmail content={content} />;
  const [html, text] = await Promise.all([render(element), render(element, { plainText: true, htmlToTextOptions: plainTextOptions() as never })]);
  return { html, text };
}

/** One recipient's copy: their own unsubscribe and preferences links. */
export function personalize(rendered: RenderedIssue, links: { unsubscribeUrl: string; preferencesUrl: string }): RenderedIssue {
  const fill = (value: string) =>
    value.replaceAll(RECIPIENT_PLACEHOLDERS.unsubscribeUrl, links.unsubscribeUrl).replaceAll(RECIPIENT_PLACEHOLDERS.preferencesUrl, links.preferencesUrl);
  // In HTML the URLs sit in attributes: & must be escaped there.
  const fillHtml = (value: string) =>
    value
      .replaceAll(RECIPIENT_PLACEHOLDERS.unsubscribeUrl, links.unsubscribeUrl.replaceAll("&", "&amp;"))
      .replaceAll(RECIPIENT_PLACEHOLDERS.preferencesUrl, links.preferencesUrl.replaceAll("&", "&amp;"));
  return { html: fillHtml(rendered.html), text: fill(rendered.text) };
}
