import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listOutboxEntries, outboxEntryId } from '../dev-outbox.ts';
import nodemailer from 'nodemailer';

/** One e-mail, ready to go: both parts already rendered in the recipient's language. */
export interface OutgoingMail {
  to: string;
  from: string;
  subject: string;
  html: string;
  text: string;
  headers?: Record<string, string>;
  /** Which template made it (activation, password_reset, new_message, …): for logs and the dev outbox. */
  kind: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox' | 'memory';
  send(mail: OutgoingMail): Promise<void>;
  /** Closes pooled connections (shutdown), after the last mail was handed over. */
  close?(): void;
}

const toNodemailer = (mail: OutgoingMail) => ({
  to: mail.to, from: mail.from, subject: mail.subject, html: mail.html, text: mail.text, headers: mail.headers,
});

/** Real mail over SMTP (SMTP_URL, e.g. smtps://user:pass@smtp.example.com:465). */
export function createSmtpMailer(url: string): Mailer {
  // A mail server that accepts the connection and then says nothing fails the attempt within seconds: the outbox row
  // is tried again later (with backoff), instead of the delivery waiting minutes on nodemailer's defaults.
  const transport = nodemailer.createTransport({ url, connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 15_000 });
  return {
    kind: 'smtp',
    async send(mail) {
      await transport.sendMail(toNodemailer(mail));
    },
    close() {
      transport.close();
    },
  };
}

export interface OutboxEntry {
  id: string;
  date: string;
  kind: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

/**
 * Development mail: every message is built exactly as SMTP would send it and written to
 * DATA_DIR/outbox as <id>.eml (open it in any mail client) plus <id>.json (for the /dev/outbox viewer).
 */
export function createOutboxMailer(dir: string): Mailer & { list(): OutboxEntry[]; read(id: string): OutboxEntry | null; dir: string } {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  mkdirSync(dir, { recursive: true });
  return {
    kind: 'outbox',
    dir,
    async send(mail) {
      const info = await transport.sendMail(toNodemailer(mail));
      const date = new Date();
      const id = outboxEntryId(date);
      writeFileSync(join(dir, `${id}.eml`), info.message as Buffer);
      const entry: OutboxEntry = { id, date: date.toISOString(), kind: mail.kind, to: mail.to, from: mail.from, subject: mail.subject, text: mail.text, html: mail.html, headers: mail.headers ?? {} };
      writeFileSync(join(dir, `${id}.json`), JSON.stringify(entry, null, 2));
    },
    list: () => listOutboxEntries<OutboxEntry>(dir),
    read(id) {
      if (!/^[0-9TZ]+-[0-9a-f]{8}$/.test(id)) return null;
      try {
        return JSON.parse(readFileSync(join(dir, `${id}.json`), 'utf8')) as OutboxEntry;
      } catch {
        return null;
      }
    },
  };
}

/** Keeps mails in memory: the default for code that is not given a mailer (unit tests). */
export function createMemoryMailer(): Mailer & { sent: OutgoingMail[] } {
  const sent: OutgoingMail[] = [];
  return {
    kind: 'memory',
    sent,
    async send(mail) {
      sent.push(mail);
    },
  };
}
