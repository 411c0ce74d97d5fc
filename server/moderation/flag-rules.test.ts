import { describe, expect, it } from 'vitest';
import { findInMessage, normalizedText } from './flag-rules.ts';

const kinds = (text: string) => findInMessage(text).map((f) => f.kind);
const matched = (text: string, kind: string) => findInMessage(text).find((f) => f.kind === kind)?.matched ?? [];

describe('automatic flags: what one message shows', () => {
  it('finds phone numbers in the ways people write them, not dates, times or prices', () => {
    for (const text of ['call me 0612345678', 'bel 06-12 34 56 78', 'my number +49 151 2345 6789', 'ring 0047 912 34 567', '(212) 555-0147 x']) {
      expect(kinds(text), text).toContain('off_site_contact');
    }
    for (const text of ['see you on 2026-11-28 at 19:30', 'I am 34 and 1.82 m tall', 'it cost 120.50 euro', 'born 12/04/1990']) {
      expect(kinds(text), text).toEqual([]);
    }
  });

  it('finds links, e-mail addresses, handles and messenger names in any language', () => {
    expect(matched('write to anna.b@example.com please', 'off_site_contact')).toEqual(['anna.b@example.com']);
    expect(matched('kijk op www.mijnprofiel.nl', 'off_site_contact')).toEqual(['www.mijnprofiel.nl']);
    expect(matched('mehr auf https://example.org/x?y=1', 'off_site_contact')).toEqual(['https://example.org/x?y=1']);
    expect(matched('scrivimi su t.me/anna92', 'off_site_contact')).toEqual(['t.me/anna92']);
    expect(matched('find me: sexy-anna.com', 'off_site_contact')).toEqual(['sexy-anna.com']);
    expect(matched('add me on snapchat @anna_92', 'off_site_contact')).toEqual(['@anna_92', 'snapchat']);
    for (const text of ['Hast du WhatsApp?', 'Tu as Telegram ?', '¿tienes insta?', 'mam Viber', 'skype?']) expect(kinds(text), text).toEqual(['off_site_contact']);
  });

  it('finds requests for money, bank and card details in the 11 languages, as whole words', () => {
    const asks = [
      'can you send me money for the ticket', 'kun je geld overmaken', 'kannst du mir Geld überweisen', 'mi serve una ricarica postepay',
      'fais-moi un virement', 'necesito dinero', 'potrzebuję pieniędzy', 'kan du låne mig penge', 'tarvitsen rahaa', 'kan du sende penger',
      'kan du swisha? skicka pengar', 'buy me a Steam card', 'my IBAN is NL91 ABNA 0417 1643 00', 'card 4111 1111 1111 1111 cvv 123',
    ];
    for (const text of asks) expect(kinds(text), text).toContain('money_request');
    // "geldig" (valid) is not "geld", "Argentina" not "argent", "planning" not "raha".
    for (const text of ['mijn paspoort is nog geldig', 'I loved Argentina', 'what are you planning tonight', 'Hello, how are you?']) {
      expect(kinds(text), text).toEqual([]);
    }
    expect(matched('my IBAN is NL91 ABNA 0417 1643 00', 'money_request')).toEqual(['NL91 ABNA 0417 1643 00']);
  });

  it('compares texts without case and spacing', () => {
    expect(normalizedText('  Hello   THERE,\nhow are you? ')).toBe('hello there, how are you?');
  });
});
