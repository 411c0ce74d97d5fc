import type { Language } from '#common/languages.ts';
import type { Translator } from '../../i18n/i18n.ts';
import { escapeHtml } from '../html.ts';

/** What every mail says about who sends it: the site, and the company behind it (spec: company info). */
export interface MailBrand {
  siteName: string;
  mailName: string;
  supportEmail: string;
  company: { name: string; address: string; city: string; kvk: string; country: string };
  /** Where the "manage your e-mail settings" link goes. */
  settingsUrl: string;
}

export interface MailContent {
  /** Template: the i18n group mail.<kind> with subject, intro, button and (optionally) note. */
  kind: string;
  lang: Language;
  brand: MailBrand;
  /** Values for the template's placeholders ({{name}}, {{site}}, …); escaped for the HTML part here. */
  params: Record<string, string | number>;
  /** The one action of the mail. */
  link: string;
  /** Category mails name their category and link to one-click unsubscribe. */
  unsubscribe?: { url: string; category: string };
  /** The site's own wording of some parts in this language (decision 074), with the same placeholders. */
  wording?: Partial<Record<'subject' | 'intro' | 'button' | 'note', string>>;
}

/** `{{name}}` filled from values (own keys only; an unknown name becomes empty, as the pages do). */
function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (_m, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : ''));
}


/** Renders one mail in the recipient's language: subject, an HTML part and a plain-text part saying the same. */
export function renderMail(translator: Translator, content: MailContent): { subject: string; html: string; text: string } {
  const { lang, brand, link } = content;
  const base = { site: brand.siteName, ...content.params };
  const escaped = Object.fromEntries(Object.entries(base).map(([k, v]) => [k, escapeHtml(String(v))]));
  const k = `mail.${content.kind}`;
  const own = (key: string) => {
    const part = key.startsWith(`${k}.`) ? key.slice(k.length + 1) : '';
    const text = Object.hasOwn(content.wording ?? {}, part) ? content.wording![part as keyof typeof content.wording] : undefined;
    return text || null;
  };
  const t = (key: string, html: boolean, extra: Record<string, string> = {}) => {
    const values = { ...(html ? escaped : base), ...extra };
    const text = own(key);
    // A site's own wording is staff's text, not markup: escaped in the HTML part, its line breaks kept.
    if (text) return html ? fill(escapeHtml(text).replace(/\n/g, '<br>'), values) : fill(text, values);
    return translator.t(lang, key, values);
  };
  const has = (key: string) => own(key) !== null || translator.t(lang, key) !== key;
  // Mails to people who may have no account (a notice's reporter) say why they get it in their own words.
  const reasonKey = has(`${k}.reason`) ? `${k}.reason` : 'mail.common.reason';

  const subject = t(`${k}.subject`, false);
  // A mail that names nobody (one to an address a visitor typed) greets without a name.
  const greeting = 'name' in content.params ? 'mail.common.greeting' : 'mail.common.greeting_plain';
  const companyLine = [brand.company.name, brand.company.address, brand.company.city, brand.company.country].filter(Boolean).join(', ');
  const kvkLine = translator.t(lang, 'mail.common.kvk', { kvk: brand.company.kvk });
  const category = content.unsubscribe ? translator.t(lang, `notifications.categories.${content.unsubscribe.category}.label`) : '';

  const textParts = [
    t(greeting, false),
    '',
    t(`${k}.intro`, false),
    '',
    `${t(`${k}.button`, false)}: ${link}`,
    ...(has(`${k}.note`) ? ['', t(`${k}.note`, false)] : []),
    '',
    '-- ',
    brand.siteName,
    t(reasonKey, false),
    ...(content.unsubscribe ? [`${translator.t(lang, 'mail.common.unsubscribe', { category })}: ${content.unsubscribe.url}`] : []),
    `${translator.t(lang, 'mail.common.settings')}: ${brand.settingsUrl}`,
    `${translator.t(lang, 'mail.common.support')}: ${brand.supportEmail}`,
    companyLine,
    kvkLine,
  ];

  const button = `<a href="${escapeHtml(link)}" style="display:inline-block;background:#1a9c9c;color:#ffffff;text-decoration:none;padding:12px 24px;border-radius:6px;font-weight:bold">${t(`${k}.button`, true)}</a>`;
  const html = `<!doctype html>
<html lang="${lang}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#f4f1f7;font-family:Arial,Helvetica,sans-serif;color:#2b1740">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="background:#f4f1f7"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="max-width:560px;background:#ffffff;border-radius:8px">
<tr><td style="background:#2b1740;color:#ffffff;padding:16px 24px;font-size:20px;font-weight:bold;border-radius:8px 8px 0 0">${escapeHtml(brand.siteName)}</td></tr>
<tr><td style="padding:24px;font-size:16px;line-height:1.5">
<p>${t(greeting, true)}</p>
<p>${t(`${k}.intro`, true)}</p>
<p style="text-align:center;margin:28px 0">${button}</p>
${has(`${k}.note`) ? `<p style="color:#6c5b7b;font-size:14px">${t(`${k}.note`, true)}</p>` : ''}
<p style="color:#6c5b7b;font-size:13px">${escapeHtml(translator.t(lang, 'mail.common.link_fallback'))}<br><a href="${escapeHtml(link)}" style="color:#1a9c9c;word-break:break-all">${escapeHtml(link)}</a></p>
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e6e0ec;font-size:12px;color:#6c5b7b;line-height:1.5">
${t(reasonKey, true)}<br>
${content.unsubscribe ? `<a href="${escapeHtml(content.unsubscribe.url)}" style="color:#6c5b7b">${escapeHtml(translator.t(lang, 'mail.common.unsubscribe', { category }))}</a> · ` : ''}<a href="${escapeHtml(brand.settingsUrl)}" style="color:#6c5b7b">${escapeHtml(translator.t(lang, 'mail.common.settings'))}</a><br>
${escapeHtml(translator.t(lang, 'mail.common.support'))}: <a href="mailto:${escapeHtml(brand.supportEmail)}" style="color:#6c5b7b">${escapeHtml(brand.supportEmail)}</a><br>
${escapeHtml(companyLine)}<br>${escapeHtml(kvkLine)}
</td></tr>
</table></td></tr></table>
</body>
</html>`;
  return { subject, html, text: textParts.join('\n') };
}

/** "Site name" <address>: the address from MAIL_FROM when set, else the site's support address. */
export function fromHeader(brand: Pick<MailBrand, 'mailName' | 'siteName' | 'supportEmail'>, mailFrom?: string): string {
  const configured = mailFrom?.match(/<([^<>]+)>\s*$/)?.[1] ?? mailFrom;
  const address = configured || brand.supportEmail;
  const name = (brand.mailName || brand.siteName).replace(/["\\\r\n]/g, '');
  return `"${name}" <${address}>`;
}
