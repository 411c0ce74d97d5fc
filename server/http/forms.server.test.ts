import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { wordFilterFormSchema } from '#common/chat.ts';
import { notificationSwitchesSchema } from '#common/notifications.ts';
import { profileSchema } from '#common/profile.ts';
import { passwordChangeSchema } from '#common/schemas.ts';
import { createTranslator, type Translator } from '../i18n/i18n.ts';
import { AppError } from '../infra/errors.ts';
import { createRateLimiter, memoryStore } from '../infra/rate-limit.ts';
import type { RequestContext } from './context.ts';
import { requestCookieJar } from './cookie-jar.ts';
import { formIntent, submitForm } from './forms.server.ts';

let translator: Translator;
beforeAll(async () => {
  translator = await createTranslator();
});

const context = (lang: 'en' | 'nl' = 'en') => ({ translator, lang, clientIp: '192.0.2.7' }) as unknown as RequestContext;

function form(entries: Array<[string, string]>): FormData {
  const data = new FormData();
  for (const [k, v] of entries) data.append(k, v);
  return data;
}

/** What the page receives: React Router's data() keeps the body and the status apart. */
async function answer(reply: Awaited<ReturnType<typeof submitForm>>) {
  if (reply instanceof Response) return { response: reply };
  return { status: reply.init?.status, body: reply.data };
}

describe('page form actions (submitForm)', () => {
  it('refuses a form the shared schema refuses, per field and in the member\'s language, without running the work', async () => {
    let ran = false;
    const reply = await answer(await submitForm(context('nl'), form([['name', '@anna'], ['gender', 'female'], ['country', 'NL'], ['about', '']]), profileSchema(), async () => {
      ran = true;
    }));
    expect(ran).toBe(false);
    expect(reply.status).toBe(400);
    expect(reply.body?.result.status).toBe('error');
    expect(reply.body?.result.error?.name).toEqual([translator.t('nl', 'errors.name_starts_with_at')]);
    // The typed values travel back, so a page without JavaScript shows them again.
    expect(reply.body?.result.initialValue).toMatchObject({ name: '@anna' });
  });

  it('reads form values as the JSON endpoint would: empty choices, no ticked box, one ticked box', async () => {
    let saved: unknown;
    const fields: Array<[string, string]> = [['name', 'Anna'], ['gender', 'female'], ['sexuality', ''], ['country', 'NL'], ['region', ''], ['about', '']];
    const reply = await answer(await submitForm(context(), form(fields), profileSchema(), async (input) => {
      saved = input;
    }));
    expect(reply.status).toBe(200);
    expect(reply.body?.ok).toBe(true);
    expect(saved).toMatchObject({ name: 'Anna', sexuality: null, region: null, about: '', interests: [] });
    await submitForm(context(), form([...fields, ['interests', 'music']]), profileSchema(), async (input) => {
      saved = input;
    });
    expect(saved).toMatchObject({ interests: ['music'] });
  });

  it('turns a refusal of the use case into field errors, or the form\'s error, with its code', async () => {
    const schema = z.object({ email: z.string() });
    const field = await answer(await submitForm(context(), form([['email', 'a@example.org']]), schema, async () => {
      throw new AppError(409, 'email_taken', {}, { email: 'errors.email_taken' });
    }));
    expect(field.status).toBe(409);
    expect(field.body?.code).toBe('email_taken');
    expect(field.body?.result.error).toMatchObject({ email: [translator.t('en', 'errors.email_taken')] });
    const whole = await answer(await submitForm(context(), form([['email', 'a@example.org']]), schema, async () => {
      throw new AppError(400, 'reset_link_invalid');
    }));
    expect(whole.body?.result.error?.['']).toEqual([translator.t('en', 'errors.reset_link_invalid')]);
  });

  it('never sends a password back', async () => {
    const reply = await answer(await submitForm(context(), form([['old_password', 'x'], ['password', 'short'], ['password_confirm', 'short']]), passwordChangeSchema(), async () => undefined));
    expect(reply.body?.result.error?.password).toEqual([translator.t('en', 'errors.password_too_short')]);
    expect(JSON.stringify(reply.body?.result.initialValue ?? {})).not.toContain('short');
  });

  it('counts the endpoint\'s rate limit and says how long to wait', async () => {
    const limiter = createRateLimiter({ name: 'test', limit: 1, windowMs: 60_000, clock: () => new Date(), store: memoryStore() });
    const schema = z.object({ email: z.string() });
    const send = () => submitForm(context(), form([['email', 'a']]), schema, async () => 'sent', { limits: limiter });
    expect((await answer(await send())).body?.done).toBe('sent');
    const limited = await answer(await send());
    expect(limited.status).toBe(429);
    expect(limited.body?.code).toBe('too_many_requests');
  });

  it('passes a redirect of the work through, with the cookies its jar collected', async () => {
    const jar = requestCookieJar(new Request('http://localhost/login', { headers: { cookie: 'a=1' } }));
    expect(jar.get('a')).toBe('1');
    const reply = await submitForm(context(), form([['email', 'a']]), z.object({ email: z.string() }), async () => {
      jar.set('auth.session', 'token', { path: '/', httpOnly: true });
      return new Response(null, { status: 302, headers: jar.headers });
    });
    expect(reply).toBeInstanceOf(Response);
    expect((reply as Response).headers.get('set-cookie')).toContain('auth.session=token');
  });

  it('reads the settings page\'s forms: absent switches are off, the word filter adds and removes', async () => {
    const switches = notificationSwitchesSchema.parse({ email: { newsletter: true }, invisible: true });
    expect(switches.email.newsletter).toBe(true);
    expect(switches.email.new_message).toBe(false);
    expect(switches.read_receipts).toBe(false);
    expect(wordFilterFormSchema.parse({ word_filter: ['spam'], word: ' WhatsApp ' }).word_filter).toEqual(['spam', 'whatsapp']);
    expect(wordFilterFormSchema.parse({ word_filter: ['spam', 'whatsapp'], word: 'typed', remove: 'spam' }).word_filter).toEqual(['whatsapp']);
    expect(wordFilterFormSchema.safeParse({ word_filter: [], word: 'x' }).success).toBe(false);
    expect(formIntent(form([['intent', 'word-filter']]))).toBe('word-filter');
    expect(formIntent(form([]))).toBe('');
  });
});
