import { and, eq } from 'drizzle-orm';
import { isLanguage, type Language } from '#common/languages.ts';
import type { Db } from '../db/client.ts';
import { companies, siteMailTexts, sites } from '../db/schema.ts';
import { createTranslator, type Translator } from '../i18n/i18n.ts';
import type { Logger } from '../infra/logger.ts';
import { fromHeader, renderMail, type MailBrand } from '../infra/mail/templates.ts';
import type { Mailer, OutgoingMail } from '../infra/mail/transport.ts';
import type { EventBus } from '../infra/events.ts';
import { isUnavailableError } from '../infra/unavailable.ts';

export interface MailConfig {
  mailer: Mailer;
  /** MAIL_FROM: the sending address; the site's support address when unset. */
  from?: string;
}

export interface SendInput {
  to: string;
  lang: string;
  siteId: number;
  kind: string;
  params?: Record<string, string | number>;
  /** A path ("/reset-password/do?token=…"), completed with the recipient's site's canonical origin. */
  link: string;
  unsubscribe?: { url: string; category: string };
  headers?: Record<string, string>;
}

/**
 * Mails a visitor can have sent to an address they typed: the activation mail after signing up, a password reset,
 * a reactivation link, the confirmation to a new address and a notice's reference and outcome. The address may be a
 * stranger's, and the account's name (or a reporter's) the visitor's own words, so these carry nothing a visitor
 * wrote: only the values named here (the site's name, our reference, our links and our decision). Anything else
 * passed is refused, so a mail cannot start carrying a name again unnoticed.
 */
export const TYPED_ADDRESS_MAILS: Readonly<Record<string, readonly string[]>> = {
  activation: [],
  password_reset: [],
  email_change: [],
  reactivation: ['days'],
  notice_received: ['reference'],
  notice_removed: ['reference', 'decision'],
  notice_no_action: ['reference', 'decision'],
};

/** Renders and sends mails in the recipient's language, with the site's name and the company's details. */
export function createMailService(deps: {
  db: Db; config: MailConfig; logger: Pick<Logger, 'error'>;
  /** Where a mail waits when the mail server is away (an outbox row, delivered by `deliverQueued`). */
  events?: Pick<EventBus, 'record' | 'emit'>;
  /** The site's canonical origin (settings' origin()); links never come from a request's Host header. */
  origin: (site: { domain: string }) => string;
}) {
  const { db, config, origin } = deps;
  let translator: Promise<Translator> | undefined;

  async function siteInfo(siteId: number) {
    const [row] = await db
      .select({ site: sites, company: companies })
      .from(sites)
      .innerJoin(companies, eq(companies.id, sites.companyId))
      .where(eq(sites.id, siteId));
    if (!row) throw new Error(`site ${siteId} not found`);
    return row;
  }

  return {
    mailer: config.mailer,
    async baseUrlFor(siteId: number): Promise<string> {
      const { site } = await siteInfo(siteId);
      return origin(site);
    },

    async send(input: SendInput): Promise<void> {
      const allowed = TYPED_ADDRESS_MAILS[input.kind];
      const foreign = allowed ? Object.keys(input.params ?? {}).filter((key) => !allowed.includes(key)) : [];
      if (foreign.length) throw new Error(`The ${input.kind} mail goes to an address a visitor typed: it must not carry ${foreign.join(', ')}`);
      const { site, company } = await siteInfo(input.siteId);
      const base = origin(site);
      const abs = (link: string) => (/^https?:\/\//.test(link) ? link : `${base}${link}`);
      const brand: MailBrand = {
        siteName: site.name, mailName: site.mailName, supportEmail: site.supportEmail,
        company: { name: company.name, address: company.address, city: company.city, kvk: company.kvk, country: company.country },
        settingsUrl: `${base}/notifications`,
      };
      const lang: Language = isLanguage(input.lang) ? input.lang : 'en';
      translator ??= createTranslator();
      const [own] = await db.select({ subject: siteMailTexts.subject, intro: siteMailTexts.intro, button: siteMailTexts.button, note: siteMailTexts.note })
        .from(siteMailTexts).where(and(eq(siteMailTexts.siteId, site.id), eq(siteMailTexts.language, lang), eq(siteMailTexts.kind, input.kind)));
      const wording = own ? Object.fromEntries(Object.entries(own).filter((e): e is [string, string] => Boolean(e[1]))) : undefined;
      const content = renderMail(await translator, {
        kind: input.kind, lang, brand, params: input.params ?? {}, link: abs(input.link), wording,
        unsubscribe: input.unsubscribe ? { ...input.unsubscribe, url: abs(input.unsubscribe.url) } : undefined,
      });
      const outgoing: OutgoingMail = {
        kind: input.kind, to: input.to, from: fromHeader(brand, config.from), ...content,
        // X-Mail-Type names the kind of mail for filters and delivery reports at the mail provider.
        headers: { 'Content-Language': lang, 'X-Mail-Type': input.kind, ...input.headers },
      };
      try {
        await config.mailer.send(outgoing);
      } catch (error) {
        // The mail server is away: the mail waits in the outbox and goes out when it is back (and the request that
        // asked for it succeeds). A mail the server refused is an error as before.
        if (!deps.events || !isUnavailableError(error)) throw error;
        deps.logger.error(`mail ${input.kind}: the mail server is away, the mail waits in the outbox:`, error instanceof Error ? error.message : error);
        await deps.events.record(db, 'mail.queued', outgoing);
        deps.events.emit('mail.queued', outgoing);
      }
    },

    /** A mail that waited in the outbox, tried again; a failure leaves it there for the next try. */
    async deliverQueued(mail: OutgoingMail): Promise<void> {
      await config.mailer.send(mail);
    },
  };
}

export type MailService = ReturnType<typeof createMailService>;
