import nodemailer from "nodemailer";
import type { EmailTransport } from "./email.server";

/**
 * SMTP through nodemailer; SMTP_URL like smtp://user:pass@mail.example.com:587. Pooled: a few
 * connections are kept open and reused, so a newsletter does not pay a TCP and TLS handshake
 * per message.
 */
export function createSmtpTransport(url: string, from: string): EmailTransport {
  const transporter = nodemailer.createTransport({ url, pool: true, maxConnections: 5, maxMessages: Infinity } as never, { from });
  return {
    name: "smtp",
    close: () => transporter.close(),
    async send(email) {
      try {
        await transporter.sendMail({
          to: email.to,
          subject: email.subject,
          text: email.text,
          ...(email.html ? { html: email.html } : {}),
          ...(email.headers ? { headers: email.headers } : {}),
        });
        return { ok: true };
      } catch (error) {
        return { ok: false, error: (error as Error).message };
      }
    },
  };
}

/** Without SMTP: the mail counts as sent and is printed whole (links included) to the server log. */
export function createLogEmailTransport(log: (entry: Record<string, unknown>, message: string) => void): EmailTransport {
  return {
    name: "log",
    async send(email) {
      log({ to: email.to, subject: email.subject, kind: email.kind }, `E-mail (log transport, not delivered):\n${email.text}`);
      return { ok: true };
    },
  };
}
