import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { chromium } from "@playwright/test";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "~/db/client.server";
import { subscribers } from "~/db/schema";
import { findUrls } from "~/lib/short-links";
import { CHROMIUM_PATH } from "../../../tests/support/chromium-path";
import { freePort } from "../../../tests/support/ports";
import { startSmtpCapture, type CapturedMail } from "../../../tests/support/smtp-capture";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { drainCampaigns } from "../sending/engine.server";
import { resolveShortLink } from "../sending/links.server";
import { createEmailChannel } from "./email-channel.server";
import { saveIssueDraft } from "./issues.server";
import { createSmtpNewsletterMailer } from "./mailer.server";
import { newsletterResults } from "./results.server";
import { scheduleIssue } from "./schedule.server";

/** The Nu checker (a JVM) and Chromium take seconds to start; more on a loaded 2-core machine. */
const CHILD_PROCESS_TIMEOUT_MS = 30_000;

/**
 * An issue sent by the send engine over SMTP to a real SMTP server (tests/support/smtp-capture.ts),
 * which refuses three addresses as a receiving server refuses a mailbox that does not exist. What
 * is checked is the message as the server received it: its links, its markup and its width.
 */
const SITE = "https://news.example";
const SETTINGS = { siteName: "Patriot Investor", siteUrl: SITE, postalAddress: "1776 Liberty Way, Philadelphia, PA 19106" };
const KNOWN = [{ slug: "bonds-guide", title: "Bonds: A Guide for Savers", excerpt: "What a bond is and how it pays you back.", image: "/images/articles/bonds-guide.svg", imageAlt: "A bond certificate", category: "Bonds" }];
const READERS = ["ann@example.com", "ben@example.com", "cal@example.com", "dee@example.com", "eve@example.com"];
const REFUSED = ["gone1@example.com", "gone2@example.com", "gone3@example.com"];
const INTRO = [
  "## What moved this week",
  "",
  "Read [our bond guide](https://news.example/articles/bonds-guide) and [the Fed's statement](https://www.federalreserve.gov/newsevents/pressreleases.htm?year=2026&kind=monetary).",
  "",
  "### In short",
  "",
  "- Rates held.",
  "- Gold rose.",
].join("\n");
const quietLogger = { info: () => {}, warn: () => {}, error: () => {} };


/** Where a link of the message leads: a short link answers 302 to its stored URL; others stand as they are. */
async function destination(db: Db, url: string) {
  // Each copy's short links name the copy (`?c=`, decision 151).
  const short = new RegExp(`^${SITE}/l/([^/?#]+)\\?c=\\d+$`).exec(url);
  if (!short) return { status: 200, url };
  const link = await resolveShortLink(db, short[1]!);
  return link ? { status: 302, url: link.url } : { status: 404, url };
}

const htmlLinks = (html: string) => [...html.matchAll(/href="(https?:\/\/[^"]+)"/g)].map((match) => match[1]!.replaceAll("&amp;", "&"));

async function sendIssue(db: Db, smtpPort: number, subject: string) {
  for (const email of [...READERS, ...REFUSED]) {
    await db.insert(subscribers).values({ channel: "email", email, firstName: "A", lastName: "B", status: "active", source: "newsletter", emailToken: `token-${email.replace(/\W/g, "-")}-0123456789abcdef` });
  }
  const saved = await saveIssueDraft(db, { draft: { subject, previewText: "Rates, metals and your savings", introMarkdown: INTRO, articleSlugs: ["bonds-guide"] }, actor: "admin@example.com", known: KNOWN });
  if (!saved.ok) throw new Error(saved.code);
  expect(await scheduleIssue(db, { id: saved.id, actor: "admin@example.com", when: "now" })).toMatchObject({ ok: true });
  const mailer = createSmtpNewsletterMailer(`smtp://127.0.0.1:${smtpPort}`, "Patriot Investor <news@news.example>");
  try {
    await drainCampaigns({
      db,
      channel: createEmailChannel({ mailer, ratePerSecond: 1000, settings: SETTINGS, known: () => KNOWN, unsubscribeMailbox: "info@news.example" }),
      logger: quietLogger,
      siteUrl: SITE,
      dncPolicy: "refuse",
    });
  } finally {
    mailer.close();
  }
}

describe.each(DB_KINDS)("an issue as the SMTP server receives it, on %s", (kind) => {
  const database = useTestDatabase(kind);
  let sink: Awaited<ReturnType<typeof startSmtpCapture>>;
  let smtpPort: number;
  let copies: CapturedMail[];
  const subject = `Weekly Brief on ${kind}`;

  beforeAll(async () => {
    smtpPort = await freePort();
    sink = await startSmtpCapture({ smtpPort, httpPort: await freePort(), refuse: REFUSED });
  });
  afterAll(async () => {
    await sink?.close();
  });

  it("every link of both parts answers 302 to the place the issue links to, the same in the text part as in the HTML part", async () => {
    const { db } = database;
    await sendIssue(db, smtpPort, subject);
    copies = sink.mails.filter((mail) => mail.subject === subject);
    expect(copies.map((mail) => mail.to[0]).sort()).toEqual([...READERS].sort());

    for (const copy of copies) {
      expect(copy.plain, "text part").toBeTruthy();
      expect(copy.html, "HTML part").toBeTruthy();
      const token = `token-${copy.to[0]!.replace(/\W/g, "-")}-0123456789abcdef`;
      const expected = new Set([
        `${SITE}/articles/bonds-guide`,
        "https://www.federalreserve.gov/newsevents/pressreleases.htm?year=2026&kind=monetary",
        SITE,
        `${SITE}/newsletter/preferences?token=${token}`,
      ]);
      for (const [part, links] of [
        ["HTML", htmlLinks(copy.html!)],
        ["text", findUrls(copy.plain!)],
      ] as const) {
        const answers = await Promise.all(links.map((url) => destination(db, url)));
        for (const [i, answer] of answers.entries()) {
          expect(answer.status, `${part} part: ${links[i]}`).toBe(links[i]!.startsWith(`${SITE}/newsletter/`) ? 200 : 302);
        }
        expect(new Set(answers.map((answer) => answer.url)), `${part} part`).toEqual(expected);
      }
    }
  });

  it("counts each hard bounce at the SMTP server once as bounced, and the other figures as the server saw them", async () => {
    const { db } = database;
    const [row] = await db.execute<{ campaign_id: string }>(sqlCampaignOf(subject)).then((result) => result.rows);
    const results = await newsletterResults(db, row!.campaign_id);
    const accepted = sink.mails.filter((mail) => mail.subject === subject).length;
    expect(sink.refused.sort()).toEqual([...REFUSED].sort());
    expect(results).toMatchObject({ planned: READERS.length + REFUSED.length, sent: accepted, failed: sink.refused.length, bounced: sink.refused.length, skipped: 0 });
    expect(results.failedReasons).toEqual([expect.objectContaining({ reason: "mailbox_rejected", count: sink.refused.length })]);
  });

  if (kind === "pglite") {
    it("passes the W3C Nu checker, allowing only the e-mail conventions (XHTML Transitional doctype, Apple's name-only meta)", async () => {
      const messages = await nuCheck(copies[0]!.html!);
      const allowed = [/^Almost standards mode doctype\. Expected “<!DOCTYPE html>”\.$/, /^Element “meta” is missing one or more of the following attributes: “content”, “property”\.$/];
      const errors = messages.filter((message) => message.type === "error" && !allowed.some((pattern) => pattern.test(message.message)));
      expect(errors.map((message) => `${message.message} (${message.extract ?? ""})`)).toEqual([]);
      // The conventions are there: the allowed messages are not empty filters.
      expect(messages.filter((message) => message.type === "error")).toHaveLength(2);
    }, CHILD_PROCESS_TIMEOUT_MS);

    it("fits a 320 px and a 390 px wide screen without sideways scrolling", async () => {
      const browser = await chromium.launch({ executablePath: CHROMIUM_PATH });
      try {
        for (const width of [320, 390]) {
          const page = await browser.newPage({ viewport: { width, height: 844 } });
          // The message's images live on the site; the layout is what is measured.
          await page.route("**/*", (route) => route.abort());
          await page.setContent(copies[0]!.html!, { waitUntil: "load" });
          const scrollWidth = await page.evaluate(() => document.scrollingElement!.scrollWidth);
          expect(scrollWidth, `${width} px screen`).toBeLessThanOrEqual(width);
          await page.close();
        }
      } finally {
        await browser.close();
      }
    }, CHILD_PROCESS_TIMEOUT_MS);
  }
});

function sqlCampaignOf(subject: string) {
  return sql`SELECT c.id AS campaign_id FROM campaigns c JOIN newsletter_issues i ON i.campaign_id = c.id WHERE i.subject = ${subject}`;
}

type NuMessage = { type: string; message: string; extract?: string };

/** The Nu Html Checker (vnu-jar) on a document, read from standard input. */
async function nuCheck(html: string): Promise<NuMessage[]> {
  const jar = String(createRequire(import.meta.url)("vnu-jar"));
  const output = await new Promise<string>((resolve, reject) => {
    const child = execFile("java", ["-jar", jar, "--format", "json", "--stdout", "--exit-zero-always", "-"], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
    child.stdin!.end(html);
  });
  return (JSON.parse(output) as { messages: NuMessage[] }).messages;
}
