import { and, asc, eq } from 'drizzle-orm';
import { isLanguage, LANGUAGE_CODES, type Language } from '#common/languages.ts';
import { LANDER_NAMES, URL_WORD } from '#common/landers.ts';
import {
  MAIL_KINDS, MAIL_PARTS, mailTextFormSchema, PAGE_SLUGS, pageTextFormSchema, pageTokenFormSchema, placeholderError, placeholdersOf,
  type MailKind, type MailPart, type PageSlug, type PageTokenForm,
} from '#common/site-content.ts';
import { TRACKING_KEYS } from '#common/tracking.ts';
import type { Actor } from '../actor.ts';
import type { Db } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { siteMailTexts, sitePageTexts, sitePageTokens, sites, staffMembers } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError } from '../infra/errors.ts';
import { loadLocales, type Resources } from '../i18n/i18n.ts';
import type { createContentService } from '../content/content.service.ts';
import { pageVars, type CompanyDetails } from '../content/site-pages.ts';
import type { Site } from '../settings/site-cache.ts';
import type { StaffRequest } from '../support/member-support.ts';
import type { AuditLog } from './audit.ts';
import { changes, consoleAdmin, parseOr400 } from './console-forms.ts';

/** A token as the console lists and edits it. */
interface TokenView { token: string; target: string; slug: string; tracking: Record<string, string> }

const notFound = () => new AppError(404, 'not_found');

/** A path's language, page or mail kind, or 404 (the console's links name them; anything else names nothing). */
function pick<T extends string>(values: readonly T[], value: unknown): T {
  if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) throw notFound();
  return value as T;
}
/** A stored token is a URL word: anything else (control characters, 5,000 characters) names none. */
const isToken = (value: unknown): value is string => typeof value === 'string' && URL_WORD.test(value);
const languageOf = (value: unknown): Language => (isLanguage(value) ? value : (() => { throw notFound(); })());

/** The token's row values from the form. */
function rowOf(form: PageTokenForm) {
  const [kind, name] = form.target.split(':') as ['lander' | 'page', string];
  const tracking = Object.fromEntries(TRACKING_KEYS.filter((k) => form[k]).map((k) => [k, form[k]!]));
  return { lander: kind === 'lander' ? name : null, slug: kind === 'lander' && form.slug ? form.slug : null, page: kind === 'page' ? name : null, tracking };
}

function viewOf(row: typeof sitePageTokens.$inferSelect): TokenView {
  return { token: row.token, target: row.lander ? `lander:${row.lander}` : `page:${row.page}`, slug: row.slug ?? '', tracking: row.tracking };
}

/** The default wording of a mail part in a language, from the locale files. */
function defaultPart(locales: Record<Language, Resources>, lang: Language, kind: MailKind, part: MailPart): string {
  const group = ((locales[lang].mail as Record<string, Record<string, string>> | undefined)?.[kind]) ?? {};
  const en = (locales.en.mail as Record<string, Record<string, string>>)[kind] ?? {};
  return group[part] ?? en[part] ?? '';
}

/**
 * The console's site texts (issue 27, decision 074): a site's short paths (`/{token}`), its own text of each static
 * page per language and its own wording of each mail per language. Admins of the site only. Every change is checked by
 * the form's own schema, written with one audit row holding before and after in the same transaction, and the short
 * paths and page texts reach every instance through the site cache's version stamp.
 */
export function createConsoleContent(deps: {
  db: Db;
  clock: Clock;
  audit: AuditLog;
  invalidateSites: () => Promise<void>;
  pages: Pick<ReturnType<typeof createContentService>, 'source' | 'render'>;
  site: (siteId: number) => Promise<Site>;
  company: (site: Site) => Promise<CompanyDetails>;
  /** A site's canonical origin (settings' origin()), for the short paths' links. */
  origin: (site: { domain: string }) => string;
  mail: { send: (input: { to: string; lang: string; siteId: number; kind: string; params?: Record<string, string | number>; link: string }) => Promise<void> };
}) {
  const { db, audit } = deps;
  let locales: Record<Language, Resources> | undefined;
  const localeTables = () => (locales ??= loadLocales());

  async function requireSite(siteId: number) {
    const [site] = await db.select({ id: sites.id, domain: sites.domain, name: sites.name }).from(sites).where(eq(sites.id, siteId));
    if (!site) throw notFound();
    return site;
  }

  /** A token taken on the site is the token field's error. */
  async function uniqueToken<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(409, 'invalid_input', {}, { path: 'errors.token_taken' });
      throw error;
    }
  }

  /** Placeholders each mail may use: those its default wording uses in any language, and the site's name. */
  function mailPlaceholders(kind: MailKind): string[] {
    const all = new Set(['site']);
    for (const lang of LANGUAGE_CODES) for (const part of MAIL_PARTS) for (const p of placeholdersOf(defaultPart(localeTables(), lang, kind, part))) all.add(p);
    return [...all];
  }

  return {
    /** A site's short paths, the landers they may open (with a preview path) and the pages (admins of the site). */
    async tokenList(actor: Actor, siteId: number) {
      consoleAdmin(actor, siteId);
      const site = await requireSite(siteId);
      const rows = await db.select().from(sitePageTokens).where(eq(sitePageTokens.siteId, siteId)).orderBy(asc(sitePageTokens.token));
      return {
        site: { ...site, origin: deps.origin(site) },
        tokens: rows.map(viewOf),
        landers: LANDER_NAMES.map((name) => ({ name, preview: `/landers/${name}` })),
        pages: [...PAGE_SLUGS],
      };
    },

    /**
     * Adds a short path (`original` null) or changes one, its token included (admins of the site). A token a route
     * takes, or one the site already has, is refused beside the field; every instance serves the change within a second.
     */
    async saveToken(actor: Actor, siteId: number, original: string | null, input: unknown, from: StaffRequest = { ip: null }): Promise<{ token: string; changed: string[] }> {
      const staff = consoleAdmin(actor, siteId);
      const form = parseOr400(pageTokenFormSchema, input);
      if (original !== null && !isToken(original)) throw notFound();
      await requireSite(siteId);
      const values = rowOf(form);
      const record = { actor: staff, role: 'admin' as const, objectType: 'page_token', objectId: `${siteId}/${form.path}`, ip: from.ip };
      const changed = await uniqueToken(() => db.transaction(async (tx) => {
        if (original === null) {
          await tx.insert(sitePageTokens).values({ siteId, token: form.path, ...values, updatedAt: deps.clock() });
          await audit.record(tx, { ...record, action: 'page_token.create', after: { token: form.path, ...values } });
          return ['token'];
        }
        const [before] = await tx.select().from(sitePageTokens)
          .where(and(eq(sitePageTokens.siteId, siteId), eq(sitePageTokens.token, original))).for('update');
        if (!before) throw notFound();
        const diff = changes({ token: before.token, lander: before.lander, slug: before.slug, page: before.page, tracking: before.tracking }, { token: form.path, ...values });
        const fields = Object.keys(diff.after);
        if (!fields.length) return fields;
        await tx.update(sitePageTokens).set({ token: form.path, ...values, updatedAt: deps.clock() })
          .where(and(eq(sitePageTokens.siteId, siteId), eq(sitePageTokens.token, original)));
        await audit.record(tx, { ...record, action: 'page_token.update', before: diff.before, after: diff.after });
        return fields;
      }));
      if (changed.length) await deps.invalidateSites();
      return { token: form.path, changed };
    },

    /** One short path as its form shows it (admins of the site). */
    async token(actor: Actor, siteId: number, token: string): Promise<TokenView> {
      consoleAdmin(actor, siteId);
      if (!isToken(token)) throw notFound();
      const [row] = await db.select().from(sitePageTokens).where(and(eq(sitePageTokens.siteId, siteId), eq(sitePageTokens.token, token)));
      if (!row) throw notFound();
      return viewOf(row);
    },

    /** Removes a short path (admins of the site): `/{token}` is a 404 on every instance within a second. */
    async deleteToken(actor: Actor, siteId: number, token: string, from: StaffRequest = { ip: null }): Promise<void> {
      const staff = consoleAdmin(actor, siteId);
      if (!isToken(token)) throw notFound();
      await db.transaction(async (tx) => {
        const [before] = await tx.delete(sitePageTokens)
          .where(and(eq(sitePageTokens.siteId, siteId), eq(sitePageTokens.token, token))).returning();
        if (!before) throw notFound();
        await audit.record(tx, {
          actor: staff, role: 'admin', action: 'page_token.delete', objectType: 'page_token', objectId: `${siteId}/${before.token}`, before: viewOf(before), ip: from.ip,
        });
      });
      await deps.invalidateSites();
    },

    /** Which pages have the site's own text in which language (admins of the site). */
    async pageTextList(actor: Actor, siteId: number) {
      consoleAdmin(actor, siteId);
      const site = await requireSite(siteId);
      const rows = await db.select({ language: sitePageTexts.language, page: sitePageTexts.page, versionDate: sitePageTexts.versionDate })
        .from(sitePageTexts).where(eq(sitePageTexts.siteId, siteId));
      return { site, pages: [...PAGE_SLUGS], languages: LANGUAGE_CODES, own: rows.map((r) => ({ ...r, versionDate: r.versionDate.toISOString() })) };
    },

    /** A page's text in a language: the site's own, else the file's (admins of the site). */
    async pageText(actor: Actor, siteId: number, language: string, page: string) {
      consoleAdmin(actor, siteId);
      const lang = languageOf(language);
      const slug = pick(PAGE_SLUGS, page);
      const site = await requireSite(siteId);
      const [own] = await db.select().from(sitePageTexts)
        .where(and(eq(sitePageTexts.siteId, siteId), eq(sitePageTexts.language, lang), eq(sitePageTexts.page, slug)));
      return { site, language: lang, page: slug, markdown: own?.markdown ?? await deps.pages.source(lang, slug), own: Boolean(own), versionDate: own?.versionDate.toISOString() ?? null };
    },

    /** The page as members would see it with this markdown, rendered and sanitized as the files are (admins of the site). */
    async previewPageText(actor: Actor, siteId: number, language: string, input: unknown): Promise<{ title: string; html: string }> {
      consoleAdmin(actor, siteId);
      const lang = languageOf(language);
      const { markdown } = parseOr400(pageTextFormSchema, input);
      const site = await deps.site(siteId);
      return deps.pages.render(markdown, pageVars(site, await deps.company(site), lang, deps.clock()));
    },

    /**
     * Stores the site's own text of a page in a language (admins of the site). Each save is a new version: its date
     * (the terms' version date on the page) is now. Audited with the text before and after.
     */
    async savePageText(actor: Actor, siteId: number, language: string, page: string, input: unknown, from: StaffRequest = { ip: null }): Promise<{ changed: boolean; versionDate: string | null }> {
      const staff = consoleAdmin(actor, siteId);
      const lang = languageOf(language);
      const slug: PageSlug = pick(PAGE_SLUGS, page);
      const { markdown } = parseOr400(pageTextFormSchema, input);
      await requireSite(siteId);
      const now = deps.clock();
      const result = await db.transaction(async (tx) => {
        const where = and(eq(sitePageTexts.siteId, siteId), eq(sitePageTexts.language, lang), eq(sitePageTexts.page, slug));
        const [before] = await tx.select().from(sitePageTexts).where(where).for('update');
        if (before?.markdown === markdown) return { changed: false, versionDate: before.versionDate.toISOString() };
        if (before) await tx.update(sitePageTexts).set({ markdown, versionDate: now }).where(where);
        else await tx.insert(sitePageTexts).values({ siteId, language: lang, page: slug, markdown, versionDate: now });
        await audit.record(tx, {
          actor: staff, role: 'admin', action: 'page_text.save', objectType: 'page_text', objectId: `${siteId}/${lang}/${slug}`,
          before: before ? { markdown: before.markdown, versionDate: before.versionDate.toISOString() } : null,
          after: { markdown, versionDate: now.toISOString() }, ip: from.ip,
        });
        return { changed: true, versionDate: now.toISOString() };
      });
      if (result.changed) await deps.invalidateSites();
      return result;
    },

    /** Drops the site's own text of a page in a language: the file's is shown again (admins of the site; audited). */
    async resetPageText(actor: Actor, siteId: number, language: string, page: string, from: StaffRequest = { ip: null }): Promise<void> {
      const staff = consoleAdmin(actor, siteId);
      const lang = languageOf(language);
      const slug = pick(PAGE_SLUGS, page);
      const removed = await db.transaction(async (tx) => {
        const [before] = await tx.delete(sitePageTexts)
          .where(and(eq(sitePageTexts.siteId, siteId), eq(sitePageTexts.language, lang), eq(sitePageTexts.page, slug))).returning();
        if (!before) return false;
        await audit.record(tx, {
          actor: staff, role: 'admin', action: 'page_text.reset', objectType: 'page_text', objectId: `${siteId}/${lang}/${slug}`,
          before: { markdown: before.markdown, versionDate: before.versionDate.toISOString() }, ip: from.ip,
        });
        return true;
      });
      if (removed) await deps.invalidateSites();
    },

    /** The mails a site may word itself, and which have its own wording in which language (admins of the site). */
    async mailTextList(actor: Actor, siteId: number) {
      consoleAdmin(actor, siteId);
      const site = await requireSite(siteId);
      const rows = await db.select({ language: siteMailTexts.language, kind: siteMailTexts.kind }).from(siteMailTexts).where(eq(siteMailTexts.siteId, siteId));
      return { site, kinds: [...MAIL_KINDS], languages: LANGUAGE_CODES, own: rows };
    },

    /** A mail's wording in a language: the site's own parts, the translations as defaults, and its placeholders. */
    async mailText(actor: Actor, siteId: number, language: string, kind: string) {
      consoleAdmin(actor, siteId);
      const lang = languageOf(language);
      const mail = pick(MAIL_KINDS, kind);
      const site = await requireSite(siteId);
      const [own] = await db.select().from(siteMailTexts)
        .where(and(eq(siteMailTexts.siteId, siteId), eq(siteMailTexts.language, lang), eq(siteMailTexts.kind, mail)));
      const defaults = Object.fromEntries(MAIL_PARTS.map((part) => [part, defaultPart(localeTables(), lang, mail, part)])) as Record<MailPart, string>;
      const values = Object.fromEntries(MAIL_PARTS.map((part) => [part, own?.[part] ?? ''])) as Record<MailPart, string>;
      return { site, language: lang, kind: mail, defaults, values, placeholders: mailPlaceholders(mail) };
    },

    /**
     * Stores the site's own wording of a mail in a language (admins of the site); an empty part keeps the translation,
     * all parts empty removes the wording. A part that uses a placeholder the mail does not have, or drops one its
     * default wording uses, is refused beside the field. Audited with before and after; the next mail uses it.
     */
    async saveMailText(actor: Actor, siteId: number, language: string, kind: string, input: unknown, from: StaffRequest = { ip: null }): Promise<{ changed: string[] }> {
      const staff = consoleAdmin(actor, siteId);
      const lang = languageOf(language);
      const mail = pick(MAIL_KINDS, kind);
      const form = parseOr400(mailTextFormSchema, input);
      const allowed = mailPlaceholders(mail);
      const errors: Record<string, string> = {};
      for (const part of MAIL_PARTS) {
        if (!form[part]) continue;
        const error = placeholderError(form[part], placeholdersOf(defaultPart(localeTables(), lang, mail, part)), allowed);
        if (error) errors[part] = error;
      }
      if (Object.keys(errors).length) throw new AppError(400, 'invalid_input', {}, errors);
      await requireSite(siteId);
      const after = Object.fromEntries(MAIL_PARTS.map((part) => [part, form[part] || null])) as Record<MailPart, string | null>;
      return db.transaction(async (tx) => {
        const where = and(eq(siteMailTexts.siteId, siteId), eq(siteMailTexts.language, lang), eq(siteMailTexts.kind, mail));
        const [row] = await tx.select().from(siteMailTexts).where(where).for('update');
        const before = Object.fromEntries(MAIL_PARTS.map((part) => [part, row?.[part] ?? null]));
        const diff = changes(before, after);
        const fields = Object.keys(diff.after);
        if (!fields.length) return { changed: fields };
        if (MAIL_PARTS.every((part) => after[part] === null)) await tx.delete(siteMailTexts).where(where);
        else if (row) await tx.update(siteMailTexts).set(after).where(where);
        else await tx.insert(siteMailTexts).values({ siteId, language: lang, kind: mail, ...after });
        await audit.record(tx, {
          actor: staff, role: 'admin', action: 'mail_text.save', objectType: 'mail_text', objectId: `${siteId}/${lang}/${mail}`,
          before: diff.before, after: diff.after, ip: from.ip,
        });
        return { changed: fields };
      });
    },

    /** Sends the mail as the site would, with sample values, to the staff member's own address (admins of the site). */
    async sendTestMail(actor: Actor, siteId: number, language: string, kind: string): Promise<{ to: string }> {
      const staff = consoleAdmin(actor, siteId);
      const lang = languageOf(language);
      const mail = pick(MAIL_KINDS, kind);
      await requireSite(siteId);
      const [me] = await db.select({ email: staffMembers.email }).from(staffMembers).where(eq(staffMembers.id, staff.staffId));
      if (!me) throw new AppError(403, 'forbidden');
      const sample: Record<string, string | number> = { name: 'Alex', sender: 'Sam', other: 'Sam', days: 30 };
      const params = Object.fromEntries(mailPlaceholders(mail).filter((p) => p !== 'site' && Object.hasOwn(sample, p)).map((p) => [p, sample[p]]));
      await deps.mail.send({ to: me.email, lang, siteId, kind: mail, params, link: '/' });
      return { to: me.email };
    },
  };
}

export type ConsoleContent = ReturnType<typeof createConsoleContent>;
