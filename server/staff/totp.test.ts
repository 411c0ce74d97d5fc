import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, generateTotpSecret, hotp, matchTotp, otpauthUri, totpStep } from './totp.ts';

const ascii = (s: string) => Buffer.from(s, 'ascii');

describe('one-time passwords', () => {
  it('gives the codes of RFC 4226 appendix D (HOTP)', () => {
    const key = ascii('12345678901234567890');
    const codes = Array.from({ length: 10 }, (_, counter) => hotp(key, counter));
    expect(codes).toEqual(['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489']);
  });

  it('gives the codes of RFC 6238 appendix B for SHA-1, SHA-256 and SHA-512', () => {
    const keys = {
      sha1: ascii('12345678901234567890'),
      sha256: ascii('12345678901234567890123456789012'),
      sha512: ascii('1234567890123456789012345678901234567890123456789012345678901234'),
    } as const;
    const vectors: [number, string, string, string][] = [
      [59, '94287082', '46119246', '90693936'],
      [1111111109, '07081804', '68084774', '25091201'],
      [1111111111, '14050471', '67062674', '99943326'],
      [1234567890, '89005924', '91819424', '93441116'],
      [2000000000, '69279037', '90698825', '38618901'],
      [20000000000, '65353130', '77737706', '47863826'],
    ];
    for (const [seconds, sha1, sha256, sha512] of vectors) {
      const step = totpStep(new Date(seconds * 1000));
      expect([hotp(keys.sha1, step, 8, 'sha1'), hotp(keys.sha256, step, 8, 'sha256'), hotp(keys.sha512, step, 8, 'sha512')])
        .toEqual([sha1, sha256, sha512]);
    }
  });

  it('reads and writes base32 (RFC 4648) as authenticator apps do', () => {
    expect(base32Encode(ascii('12345678901234567890'))).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Encode(ascii('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('mzxw 6ytb-oi======').toString()).toBe('foobar');
    expect(() => base32Decode('MZXW1')).toThrow();
    const secret = generateTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
  });

  it('accepts the code of now and of one step either side, once, and nothing older', () => {
    const secret = base32Encode(ascii('12345678901234567890'));
    const at = new Date(1111111111 * 1000);
    const step = totpStep(at);
    const code = (s: number) => hotp(base32Decode(secret), s);
    expect(matchTotp(secret, code(step), at, null)).toBe(step);
    expect(matchTotp(secret, code(step - 1), at, null)).toBe(step - 1);
    expect(matchTotp(secret, code(step + 1), at, null)).toBe(step + 1);
    expect(matchTotp(secret, code(step - 2), at, null)).toBeNull();
    expect(matchTotp(secret, code(step + 2), at, null)).toBeNull();
    // The step a code was taken for, and the ones before it, are spent.
    expect(matchTotp(secret, code(step), at, step)).toBeNull();
    expect(matchTotp(secret, code(step - 1), at, step)).toBeNull();
    expect(matchTotp(secret, code(step + 1), at, step)).toBe(step + 1);
    expect(matchTotp(secret, '12345', at, null)).toBeNull();
    expect(matchTotp(secret, `${code(step)}0`, at, null)).toBeNull();
  });

  it('writes the otpauth link authenticator apps read', () => {
    const text = otpauthUri('Amora Staff', 'ann@example.com', 'GEZDGNBV');
    expect(text).toBe('otpauth://totp/Amora%20Staff:ann%40example.com?secret=GEZDGNBV&issuer=Amora%20Staff&algorithm=SHA1&digits=6&period=30');
    const uri = new URL(text);
    expect(Object.fromEntries(uri.searchParams)).toEqual({ secret: 'GEZDGNBV', issuer: 'Amora Staff', algorithm: 'SHA1', digits: '6', period: '30' });
  });
});
