import { describe, expect, it } from 'vitest';
import { DISMISS_KEYS, dismissedInCookie } from './constants.ts';

describe('dismissedInCookie', () => {
  it('reads the dismissed alerts from their cookie among others', () => {
    const header = `amora.locale=nl; amora.dismissed=${DISMISS_KEYS.enrich}.${DISMISS_KEYS.push}; amora.session=abc`;
    expect(dismissedInCookie(header)).toEqual([DISMISS_KEYS.enrich, DISMISS_KEYS.push]);
  });

  it('ignores names it does not know, and a missing cookie or header means none dismissed', () => {
    expect(dismissedInCookie(`amora.dismissed=hide-everything.${DISMISS_KEYS.timeBonusModal}`)).toEqual([DISMISS_KEYS.timeBonusModal]);
    expect(dismissedInCookie('amora.locale=nl')).toEqual([]);
    expect(dismissedInCookie(null)).toEqual([]);
    expect(dismissedInCookie('amora.dismissed=')).toEqual([]);
  });
});
