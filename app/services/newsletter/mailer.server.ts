import nodemailer from "nodemailer";

export type NewsletterMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  /** Deterministic per recipient and issue: the key the provider's event log is asked by. */
  messageId: string;
};

export type MailerResult =
  | { ok: true; providerId: string }
  | { ok: false; permanent: boolean; mailboxRejected: boolean; error: string };

export type NewsletterMailer = { name: "smtp" | "log"; send(message: NewsletterMessage): Promise<MailerResult>; close(): void };

/**
 * Bulk mail over SMTP through a pool of connections kept open (no TCP/TLS handshake per message).
 * A 5xx answer is final; a 550/551/553 with a 5.1.x status means the mailbox does not exist
 * (a hard bounce); anything else (4xx, a dropped connection) is tried again later.
 */
export function createSmtpNewsletterMailer(url: string, from: string, connections = 5): NewsletterMailer {
  const transporter = nodemailer.createTransport({ url, pool: true, maxConnections: connections, maxMessages: Infinity } as never, { from });
  return {
    name: "smtp",
    async send(message) {
      try {
        const info = await transporter.sendMail({ to: message.to, subject: message.subject, text: message.text, html: message.html, headers: message.headers, messageId: message.messageId });
        return { ok: true, providerId: String(info.messageId ?? message.messageId) };
      } catch (error) {
        const code = Number((error as { responseCode?: number }).responseCode ?? 0);
        const text = (error as Error).message.slice(0, 500);
        return { ok: false, permanent: code >= 500, mailboxRejected: [550, 551, 553].includes(code) && /\b5\.1\.\d\b|user unknown|no such user|does not exist/i.test(text), error: text };
      }
    },
    close: () => transporter.close(),
  };
}

/** Without SMTP_URL: each copy counts as sent and one line (not the whole issue) goes to the log. */
export function createLogNewsletterMailer(log: (entry: Record<string, unknown>, message: string) => void): NewsletterMailer {
  return {
    name: "log",
    async send(message) {
      log({ to: message.to, subject: message.subject, messageId: message.messageId }, "Newsletter (log transport, not delivered)");
      return { ok: true, providerId: message.messageId };
    },
    close: () => {},
  };
}
