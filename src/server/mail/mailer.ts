import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import nodemailer, { type TransportOptions } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * SMTP when SMTP_URL is set (any server nodemailer speaks to); otherwise each message is written
 * as an .eml file to DATA_DIR/outbox and logged, so a developer can open the reset link.
 */
export function createMailer(opts: { smtpUrl?: string; outboxDir: string; from: string; log?: (msg: string) => void }): Mailer {
  if (opts.smtpUrl) {
    const url = new URL(opts.smtpUrl);
    // A plain smtp:// URL to a local relay should not insist on STARTTLS; smtps:// is TLS.
    const transport = nodemailer.createTransport({
      url: opts.smtpUrl,
      ignoreTLS: url.searchParams.get('ignoreTLS') === 'true',
    } as TransportOptions);
    return {
      async send(message) {
        await transport.sendMail({ from: opts.from, ...message });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: opts.from, ...message });
      await mkdir(opts.outboxDir, { recursive: true });
      const file = path.join(opts.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`);
      // Written under another name, then renamed: whoever watches the folder (a developer, the
      // tests) never reads a mail half written.
      await writeFile(`${file}.part`, info.message as Buffer);
      await rename(`${file}.part`, file);
      opts.log?.(`mail to ${message.to} "${message.subject}" written to ${file}`);
    },
  };
}
