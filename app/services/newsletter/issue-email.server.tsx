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
    .replace(/<a href=/g, `<a style="color:${COLORS.red};text-decoration:underline" href=`)
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
            {content.introMarkdown.trim() ? <div dangerouslySetInnerHTML={{ __html: introHtml(content.introMarkdown) }} /> : null}
          </Section>
          {content.articles.length > 0 ? (
            <Section style={{ padding: "0 32px" }}>
              <Heading as="h2" style={{ margin: "8px 0 16px", fontFamily: sans, fontSize: "13px", letterSpacing: "1px", textTransform: "uppercase", color: COLORS.red }}>
                Latest insights
              </Heading>
              {content.articles.map((article) => (
                <Section key={article.url} style={{ marginBottom: "28px" }}>
                  <Link href={article.url}>
                    <Img src={article.imageUrl} alt={article.imageAlt} width="536" height="302" style={{ display: "block", width: "100%", maxWidth: "536px", height: "auto", border: 0 }} />
                  </Link>
                  <Text style={{ margin: "12px 0 4px", fontFamily: sans, fontSize: "12px", textTransform: "uppercase", color: COLORS.muted }}>{article.category}</Text>
                  <Heading as="h3" style={{ margin: "0 0 8px", fontFamily: font, fontSize: "22px", lineHeight: "28px" }}>
                    <Link href={article.url} style={{ color: COLORS.navy, textDecoration: "none" }}>
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
            <Text style={{ margin: "0 0 8px", fontFamily: sans, fontSize: "12px", lineHeight: "18px", color: COLORS.muted }}>
              You receive this e-mail because you subscribed to the {content.siteName} newsletter at{" "}
              <Link href={content.siteUrl} style={{ color: COLORS.muted }}>
                {content.siteUrl.replace(/^https?:\/\//, "")}
              </Link>
              . Educational content, not investment advice.
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

/** Renders an issue once: HTML for every client and its plain-text part, with recipient placeholders. */
export async function renderIssue(content: IssueContent): Promise<RenderedIssue> {
  const element = <IssueEmail content={content} />;
  const [html, text] = await Promise.all([render(element), render(element, { plainText: true })]);
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
