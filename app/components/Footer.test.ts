import { describe, expect, it } from 'vitest';
import { footerLinks } from './Footer.tsx';
import en from '../../locales/en.json';

describe('footerLinks', () => {
  const usOnly = [
    ['/pages/privacy#your-privacy-choices', 'footer.privacy_choices'],
    ['/pages/privacy#notice-at-collection', 'footer.notice_at_collection'],
  ];

  it('gives US visitors the privacy choices and notice at collection links after the usual ones', () => {
    const links = footerLinks('US');
    expect(links.slice(-2)).toEqual(usOnly);
    expect(links.slice(0, -2)).toEqual(footerLinks('NL'));
    expect(footerLinks('us')).toEqual(links);
  });

  it('gives everyone else the nine spec links only', () => {
    for (const country of ['NL', 'DE', 'GB', 'CA', null, undefined]) {
      const links = footerLinks(country);
      expect(links.map(([to]) => to)).toEqual([
        '/pages/terms', '/pages/privacy', '/pages/cookies', '/pages/ban', '/pricing', '/complaints', '/pages/return-policy', '/pages/faq', '/pages/service',
      ]);
    }
  });

  it('has a label for every link', () => {
    for (const [, key] of footerLinks('US')) expect(en.footer[key.replace('footer.', '') as keyof typeof en.footer]).toBeTruthy();
  });
});
