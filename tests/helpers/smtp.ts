import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  envelopeTo: string[];
  raw: string;
  parsed: ParsedMail;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The first link in the text part that contains `contains`. */
  link(contains: string): string;
  /** A header exactly as sent (unfolded). */
  header(name: string): string;
}

/**
 * A real SMTP server on a random local port: the app sends to it with nodemailer, the test reads
 * what arrived, parsed by mailparser.
 */
export async function startSmtpServer() {
  const mails: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw).then((parsed) => {
          const text = parsed.text ?? '';
          mails.push({
            envelopeTo: session.envelope.rcptTo.map((r) => r.address),
            raw, parsed, text,
            to: session.envelope.rcptTo[0]?.address ?? '',
            subject: parsed.subject ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            header(name) {
              const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
              return head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`))?.slice(name.length + 1).trim() ?? '';
            },
            link(contains) {
              const found = text.match(/https?:\/\/\S+/g)?.find((u) => u.includes(contains));
              if (!found) throw new Error(`no link with ${contains} in mail "${parsed.subject}":\n${text}`);
              return found;
            },
          });
          waiters.splice(0).forEach((w) => w());
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** Mails to one address, oldest first. */
    to: (address: string) => mails.filter((m) => m.envelopeTo.includes(address.toLowerCase())),
    /** Waits until a mail to `address` (optionally matching) has arrived; returns the newest such mail. */
    async waitFor(address: string, match: (m: ReceivedMail) => boolean = () => true, timeoutMs = 5000): Promise<ReceivedMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = mails.filter((m) => m.envelopeTo.includes(address.toLowerCase()) && match(m)).at(-1);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${address} within ${timeoutMs} ms (got: ${mails.map((m) => `${m.to}: ${m.subject}`).join('; ') || 'none'})`);
        await new Promise<void>((r) => { waiters.push(r); setTimeout(r, 50); });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TestSmtp = Awaited<ReturnType<typeof startSmtpServer>>;
