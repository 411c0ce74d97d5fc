import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listOutboxEntries, outboxEntryId } from '../dev-outbox.ts';

/** One text message, already in the recipient's language. `to` is an E.164 number (+31612345678). */
export interface OutgoingSms {
  to: string;
  text: string;
  /** What it is for (direct_debit_code): for logs and the dev outbox. */
  kind: string;
}

/** Sends text messages: an SMS gateway in production, the dev outbox on a developer's machine, memory in tests. */
export interface SmsSender {
  readonly kind: 'http' | 'outbox' | 'memory';
  send(sms: OutgoingSms): Promise<void>;
}

/** The gateway did not take the message: the member may ask for a new code. */
export class SmsUnavailableError extends Error {
  constructor(cause?: unknown) {
    super(`SMS gateway unavailable (${cause instanceof Error ? cause.name : String(cause)})`);
    this.name = 'SmsUnavailableError';
  }
}

/**
 * An HTTP SMS gateway (SMS_URL, SMS_API_KEY, SMS_FROM): POSTs {from, to, text} as JSON with the key as a
 * bearer token and expects a 2xx. Most gateways (MessageBird, Vonage, Twilio behind a small adapter) take
 * this shape or one close to it; another shape is one more SmsSender.
 */
export function createHttpSmsSender(options: { url: string; apiKey: string; from: string; fetch?: typeof fetch }): SmsSender {
  const send = options.fetch ?? fetch;
  return {
    kind: 'http',
    async send(sms) {
      let res: Response;
      try {
        res = await send(options.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${options.apiKey}` },
          body: JSON.stringify({ from: options.from, to: sms.to, text: sms.text }),
          signal: AbortSignal.timeout(10_000),
        });
      } catch (error) {
        throw new SmsUnavailableError(error);
      }
      if (!res.ok) throw new SmsUnavailableError(`status ${res.status}`);
    },
  };
}

export interface SmsOutboxEntry {
  id: string;
  date: string;
  kind: string;
  to: string;
  text: string;
}

/** Development SMS: every message is written to DATA_DIR/sms-outbox as <id>.json (viewer at /dev/sms). */
export function createOutboxSmsSender(dir: string): SmsSender & { list(): SmsOutboxEntry[]; dir: string } {
  mkdirSync(dir, { recursive: true });
  return {
    kind: 'outbox',
    dir,
    async send(sms) {
      const date = new Date();
      const id = outboxEntryId(date);
      const entry: SmsOutboxEntry = { id, date: date.toISOString(), kind: sms.kind, to: sms.to, text: sms.text };
      writeFileSync(join(dir, `${id}.json`), JSON.stringify(entry, null, 2));
    },
    list: () => listOutboxEntries<SmsOutboxEntry>(dir),
  };
}

/** Keeps messages in memory: the default when no sender is given (tests). */
export function createMemorySmsSender(): SmsSender & { sent: OutgoingSms[] } {
  const sent: OutgoingSms[] = [];
  return {
    kind: 'memory',
    sent,
    async send(sms) {
      sent.push(sms);
    },
  };
}
