import type { Env } from '../env.ts';
import { isPublicOrigin, siteOrigin } from './origin.ts';

/**
 * What an operator must know at every start of a deployment that outsiders can reach: mail that is not
 * delivered, and payments that are simulated or refused. Each warning is one multi-line message.
 */
export function startupWarnings(input: {
  env: Pick<Env, 'PUBLIC_URL' | 'PORT' | 'SMTP_URL' | 'ALLOW_TEST_PAYMENTS' | 'PAYMENT_PROVIDER'> & Partial<Pick<Env, 'SMS_URL'>>;
  /** Every configured site's domain. */
  domains: readonly string[];
  /** Where mails go without SMTP_URL. */
  outboxDir?: string;
  /** Where text messages go without SMS_URL. */
  smsOutboxDir?: string;
}): string[] {
  const { env, domains } = input;
  if (!isPublicOrigin(env, domains)) return [];
  const origins = [...new Set(domains.map((d) => siteOrigin(env, d)))].join(', ');
  const warnings: string[] = [];
  if (!env.SMTP_URL) {
    warnings.push([
      '!!! MAIL IS NOT DELIVERED !!!',
      `  This server runs on a public origin (${origins}) without SMTP_URL.`,
      '  Activation, password reset, e-mail change and notification mails reach nobody:',
      `  they are written to ${input.outboxDir ?? 'the dev outbox'} (the /dev/outbox viewer stays off on a public origin).`,
      '  Set SMTP_URL (smtps://user:password@mail.example.com:465) to send them.',
    ].join('\n'));
  }
  if (!env.SMS_URL) {
    warnings.push([
      '!!! SMS IS NOT DELIVERED !!!',
      `  This server runs on a public origin (${origins}) without SMS_URL.`,
      '  Direct-debit codes reach nobody, so nobody can pay by direct debit:',
      `  they are written to ${input.smsOutboxDir ?? 'the dev SMS outbox'} (the /dev/sms viewer stays off on a public origin).`,
      '  Set SMS_URL, SMS_API_KEY and SMS_FROM to send them.',
    ].join('\n'));
  }
  if (env.PAYMENT_PROVIDER === 'test') {
    warnings.push(env.ALLOW_TEST_PAYMENTS
      ? [
        '!!! PAYMENTS ARE SIMULATED !!!',
        `  ALLOW_TEST_PAYMENTS is on for a public origin (${origins}): members get credits from the test checkout`,
        '  and no money is charged. Every page shows a test-mode banner. Turn it off before taking real members.',
      ].join('\n')
      : [
        'Payments are off.',
        `  The test payment provider is refused on a public origin (${origins}): ordering credits answers "payments unavailable".`,
        '  Set ALLOW_TEST_PAYMENTS=1 to simulate payments there on purpose.',
      ].join('\n'));
  }
  return warnings;
}
