import { describe, expect, it } from 'vitest';
import { idSchema, MAX_ID, textSchema, toId, visibleLength } from './input.ts';
import { nameSchema } from './schemas.ts';

describe('input rules', () => {
  it('takes ids as JSON numbers or canonical decimal strings within 32 bits', () => {
    expect([toId(7), toId('7'), toId(MAX_ID), toId(String(MAX_ID))]).toEqual([7, 7, MAX_ID, MAX_ID]);
    for (const bad of [0, -1, MAX_ID + 1, 2 ** 53, 1e308, 1.5, NaN, '0', '07', ' 7 ', '1e2', '+7', '7.0', '0x7', '2147483648', '', true, [1], {}, null, undefined]) {
      expect(toId(bad), String(bad)).toBeNull();
    }
    expect(idSchema('errors.package_not_found').safeParse('x').error?.issues[0].message).toBe('errors.package_not_found');
  });

  it('normalises text and refuses control, bidi and hidden characters', () => {
    const line = textSchema({ max: 20, tooLong: 'errors.too_long' });
    const lines = textSchema({ max: 20, tooLong: 'errors.too_long', multiline: true });
    expect(line.parse('  Rene\u0301 ')).toBe('René');
    expect(lines.parse('a\r\nb\tc')).toBe('a\nb\tc');
    for (const bad of ['a\u0000', 'a\nb', 'a\tb', '\u202Eabc', 'a\u2066b\u2069', 'a\u0085', '\u{E0041}', '\uD800', 'a\u3164']) {
      expect(line.safeParse(bad).error?.issues[0].message, JSON.stringify(bad)).toBe('errors.text_invalid_characters');
    }
    expect(lines.safeParse('a\u0000').success).toBe(false);
    expect(line.safeParse('x'.repeat(21)).error?.issues[0].message).toBe('errors.too_long');
  });

  it('counts only visible characters towards a name', () => {
    expect(visibleLength('\u200B\u200C\u200D\u2060\uFEFF')).toBe(0);
    expect(visibleLength('👩‍👩‍👧 Al')).toBe(5);
    expect(nameSchema.safeParse('\u200B\u200B\u200B').error?.issues[0].message).toBe('errors.name_too_short');
    expect(nameSchema.safeParse('A\u200B').error?.issues[0].message).toBe('errors.name_too_short');
    expect(nameSchema.parse('Zoë')).toBe('Zoë');
    expect(nameSchema.safeParse(42).error?.issues[0].message).toBe('errors.name_too_short');
  });
});
