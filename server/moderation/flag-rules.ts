/**
 * What in a single message makes a moderator want to look at its sender (issue 26: automatic flags). These rules
 * only find evidence; a flag puts the member in the members queue and never restricts anyone by itself, so a
 * rule may err on the side of showing a moderator too much.
 */

import type { FlagKind } from '#common/moderation-flags.ts';

export interface MessageFinding {
  kind: Extract<FlagKind, 'off_site_contact' | 'money_request'>;
  /** What matched, as written in the message (at most a few items). */
  matched: string[];
}

/** A phone number: 9 digits or more with the usual separators (a date has 8). */
const PHONE = /(?:\+|\b00)?\d[\d\s().\-/]{7,22}\d/g;
const LINK = /\bhttps?:\/\/\S+|\bwww\.\S+|\b(?:t\.me|wa\.me|bit\.ly|tinyurl\.com)\/\S*|\b[a-z0-9][a-z0-9-]{1,62}\.(?:com|net|org|info|biz|io|me|ly|nl|de|be|at|ch|fr|it|es|pl|dk|fi|no|se|uk|eu|ru|xyz|top|site|online|app|link|club|live|chat|co)\b/giu;
const EMAIL = /[\p{L}\d._%+-]+@[\p{L}\d-]+(?:\.[\p{L}\d-]+)*\.\p{L}{2,}/gu;
/** A handle such as "@anna_92", not the middle of an e-mail address. */
const HANDLE = /(?<![\p{L}\d._%+-])@[\p{L}\d_.]{3,30}/gu;
const MESSENGERS = /(?<![\p{L}\d])(?:whats\s?app|telegram|snap\s?chat|kik|viber|skype|wechat|threema|discord|insta(?:gram)?)(?![\p{L}\d])/giu;

/**
 * Words that ask for money or payment details, in the site's 11 languages. Whole words (or the phrase), so that
 * Dutch "geldig" is not "geld"; inflected forms are listed where they are common.
 */
const MONEY_TERMS = [
  // en
  'money', 'cash', 'bank account', 'bank details', 'account number', 'western union', 'moneygram', 'gift card', 'giftcard',
  'itunes card', 'steam card', 'paypal', 'bitcoin', 'btc', 'crypto', 'wire transfer', 'loan', 'lend me', 'card number',
  'credit card', 'cvv', 'cvc',
  // nl
  'geld', 'bankrekening', 'rekeningnummer', 'overmaken', 'overboeken', 'tikkie', 'cadeaukaart', 'cadeaubon', 'creditcard',
  'pinpas', 'lenen',
  // de
  'bankkonto', 'kontonummer', 'überweisen', 'überweisung', 'gutschein', 'geschenkkarte', 'kreditkarte', 'bargeld', 'leihen',
  // it
  'soldi', 'denaro', 'conto bancario', 'bonifico', 'ricarica', 'carta regalo', 'carta di credito', 'prestito', 'postepay',
  // fr
  'argent', 'virement', 'compte bancaire', 'rib', 'carte cadeau', 'carte bancaire', 'carte de crédit', 'prêter', 'mandat cash',
  // es
  'dinero', 'transferencia', 'cuenta bancaria', 'tarjeta regalo', 'tarjeta de crédito', 'préstamo', 'bizum',
  // pl
  'pieniądze', 'pieniędzy', 'pieniadze', 'przelew', 'konto bankowe', 'numer konta', 'karta podarunkowa', 'karta kredytowa',
  'pożyczka', 'pożyczyć', 'blik',
  // da, nb
  'penge', 'penger', 'overføre', 'overførsel', 'overføring', 'gavekort', 'kreditkort', 'kredittkort', 'låne', 'mobilepay', 'vipps',
  // fi
  'raha', 'rahaa', 'rahat', 'tilisiirto', 'pankkitili', 'tilinumero', 'lahjakortti', 'luottokortti', 'lainata', 'laina',
  // sv
  'pengar', 'överföra', 'överföring', 'presentkort', 'låna', 'swish',
];
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');
const MONEY = new RegExp(`(?<![\\p{L}\\d])(?:${MONEY_TERMS.map(escape).join('|')})(?![\\p{L}\\d])`, 'giu');
/** An IBAN, written with or without its groups' spaces. */
const IBAN = /\b[a-z]{2}\d{2}(?:\s?[a-z0-9]{4}){2,7}(?:\s?[a-z0-9]{1,4})?\b/giu;

const digitsOf = (s: string) => s.replace(/\D/g, '').length;
const firstFew = (items: Iterable<string>) => [...new Set([...items].map((s) => s.trim()))].slice(0, 5);

/** What in one message's text points off the site or at money; empty when nothing does. */
export function findInMessage(text: string): MessageFinding[] {
  const findings: MessageFinding[] = [];
  const numbers = [...text.matchAll(PHONE)].map((m) => m[0]);
  // An international number (+ or 00) has up to 15 digits; otherwise 13 digits or more is a card's number.
  const international = (n: string) => /^(?:\+|00)/.test(n);
  const phones = numbers.filter((n) => digitsOf(n) >= 9 && digitsOf(n) <= (international(n) ? 15 : 12));
  const cards = numbers.filter((n) => !phones.includes(n) && digitsOf(n) >= 13 && digitsOf(n) <= 19);
  const emails = [...text.matchAll(EMAIL)].map((m) => m[0]);
  const contact = [
    ...phones, ...emails, ...[...text.matchAll(LINK)].map((m) => m[0]).filter((l) => !emails.some((e) => e.includes(l))),
    ...[...text.matchAll(HANDLE)].map((m) => m[0]), ...[...text.matchAll(MESSENGERS)].map((m) => m[0]),
  ];
  if (contact.length) findings.push({ kind: 'off_site_contact', matched: firstFew(contact) });
  const ibans = [...text.matchAll(IBAN)].map((m) => m[0]).filter((s) => digitsOf(s) >= 8);
  const money = [...ibans, ...cards, ...[...text.matchAll(MONEY)].map((m) => m[0].toLowerCase())];
  if (money.length) findings.push({ kind: 'money_request', matched: firstFew(money) });
  return findings;
}

/** The same text, told apart from greetings: shorter texts are too often the same by chance. */
export const REPEATED_TEXT_MIN_LENGTH = 20;
/** The same text to this many members within a day flags its sender (sending it to 5 within an hour is refused). */
export const REPEATED_TEXT_RECIPIENTS = 4;
export const REPEATED_TEXT_WINDOW_MS = 24 * 3_600_000;
/** Messages to this many members within the first hour after sign-up. */
export const MASS_MESSAGING_RECIPIENTS = 10;
export const MASS_MESSAGING_WINDOW_MS = 3_600_000;

/** Reports against one member from this many different members within a week. */
export const MANY_REPORTS_REPORTERS = 3;
export const MANY_REPORTS_WINDOW_MS = 7 * 24 * 3_600_000;

/** A text as it is compared with the sender's other texts: case and spacing do not make it another text. */
export function normalizedText(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}
