import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../env.ts';
import { startupWarnings } from '../../settings/startup-warnings.ts';
import { Hono } from 'hono';
import { smsOutboxViewer } from '../../dev-tools/sms-outbox.routes.ts';
import { createHttpSmsSender, createOutboxSmsSender, SmsUnavailableError } from './sms.ts';

describe('SMS senders', () => {
  it('posts the message to the gateway as JSON with the key as bearer token', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const sender = createHttpSmsSender({
      url: 'https://sms.example/v1/messages', apiKey: 'key-12345678', from: 'Amora',
      fetch: (async (url: string, init: RequestInit) => {
        calls.push({ url, init });
        return new Response('{}', { status: 202 });
      }) as typeof fetch,
    });
    await sender.send({ to: '+31612345678', text: '123456 is your code', kind: 'direct_debit_code' });
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('https://sms.example/v1/messages');
    expect((calls[0].init.headers as Record<string, string>).authorization).toBe('Bearer key-12345678');
    expect(JSON.parse(calls[0].init.body as string)).toEqual({ from: 'Amora', to: '+31612345678', text: '123456 is your code' });
  });

  it('reports a gateway that refuses or cannot be reached', async () => {
    const refusing = createHttpSmsSender({ url: 'https://sms.example', apiKey: 'key-12345678', from: 'Amora', fetch: (async () => new Response('no', { status: 500 })) as unknown as typeof fetch });
    await expect(refusing.send({ to: '+31612345678', text: 'x', kind: 'k' })).rejects.toBeInstanceOf(SmsUnavailableError);
    const offline = createHttpSmsSender({ url: 'https://sms.example', apiKey: 'key-12345678', from: 'Amora', fetch: (async () => { throw new TypeError('fetch failed'); }) as unknown as typeof fetch });
    await expect(offline.send({ to: '+31612345678', text: 'x', kind: 'k' })).rejects.toBeInstanceOf(SmsUnavailableError);
  });

  it('writes development messages to the outbox directory, newest first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'amora-sms-'));
    try {
      const outbox = createOutboxSmsSender(join(dir, 'sms-outbox'));
      await outbox.send({ to: '+31611111111', text: 'first', kind: 'direct_debit_code' });
      await new Promise((r) => setTimeout(r, 5));
      await outbox.send({ to: '+31622222222', text: 'second', kind: 'direct_debit_code' });
      expect(outbox.list().map((m) => [m.to, m.text])).toEqual([['+31622222222', 'second'], ['+31611111111', 'first']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('warns at start when a public origin has no SMS gateway, and not with one or on localhost', () => {
    const env = (extra: Record<string, string>) => loadEnv({ NODE_ENV: 'test', SMTP_URL: 'smtp://mail.example.org', ...extra });
    const warned = startupWarnings({ env: env({}), domains: ['amora.example'], smsOutboxDir: '/srv/amora/data/sms-outbox' }).join('\n');
    expect(warned).toContain('SMS IS NOT DELIVERED');
    expect(warned).toContain('/srv/amora/data/sms-outbox');
    const configured = env({ SMS_URL: 'https://sms.example/v1/messages', SMS_API_KEY: 'key-12345678', SMS_FROM: 'Amora' });
    expect(startupWarnings({ env: configured, domains: ['amora.example'] }).join('\n')).not.toContain('SMS');
    expect(startupWarnings({ env: env({}), domains: ['localhost'] })).toEqual([]);
    expect(() => env({ SMS_URL: 'https://sms.example/v1/messages' })).toThrow(/SMS_API_KEY and SMS_FROM/);
  });

  it('shows the dev outbox at /dev/sms to the operator only; anyone else gets the site\'s 404', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'amora-sms-'));
    try {
      const outbox = createOutboxSmsSender(join(dir, 'sms-outbox'));
      await outbox.send({ to: '+31633333333', text: '424242 is your code', kind: 'direct_debit_code' });
      const app = (operator: boolean) => new Hono()
        .use('/dev/sms/*', smsOutboxViewer(outbox, () => operator))
        .notFound((c) => c.text('site 404', 404))
        .onError((e, c) => c.text(`error ${(e as { status?: number }).status ?? 500}`, ((e as { status?: number }).status ?? 500) as 404));
      const page = await app(true).request('/dev/sms');
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('424242 is your code');
      const list = await (await app(true).request('/dev/sms/messages.json?to=%2B31633333333')).json() as { messages: { text: string }[] };
      expect(list.messages.map((m) => m.text)).toEqual(['424242 is your code']);
      const stranger = await app(false).request('/dev/sms');
      expect(stranger.status).toBe(404);
      expect(await stranger.text()).toBe('site 404');
      expect((await app(false).request('/dev/sms/messages.json')).status).toBe(404);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
