import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { portraitSvg } from './portrait.ts';

/** A stand-in for the seed's generator: counts what it hands out. */
function counted(seed: number) {
  let s = seed;
  const rand = () => {
    rand.calls++;
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
  rand.calls = 0;
  return rand;
}

describe('the demo profiles\' portraits', () => {
  it('are the same for the same seed, and take four values from it, as the pictures before them did', () => {
    const a = counted(42);
    const b = counted(42);
    expect(portraitSvg(a, 'female', 30)).toBe(portraitSvg(b, 'female', 30));
    expect(a.calls).toBe(4);
  });

  it('differ from profile to profile', () => {
    const rand = counted(7);
    const svgs = Array.from({ length: 40 }, (_, i) => portraitSvg(rand, i % 3 ? 'female' : 'male', 20 + i));
    expect(new Set(svgs).size).toBe(40);
    // Skin tones and backgrounds vary too, not only the details.
    const skins = new Set(svgs.map((svg) => svg.match(/<path d="M1(66|70) 240[^"]*" fill="(#[0-9a-f]{6})"/)?.[2]));
    expect(skins.size).toBeGreaterThan(4);
  });

  it('give some men a beard, and older members grey hair more often', () => {
    const rand = counted(11);
    const men = Array.from({ length: 60 }, () => portraitSvg(rand, 'male', 30));
    expect(men.some((svg) => svg.includes('M170 262 C172 336'))).toBe(true);
    const women = Array.from({ length: 60 }, () => portraitSvg(rand, 'female', 30));
    expect(women.some((svg) => svg.includes('M170 262 C172 336'))).toBe(false);
    const grey = (age: number) => Array.from({ length: 60 }, () => portraitSvg(rand, 'female', age)).filter((svg) => /#(b9b4ae|d6d2cc|8e8983)/.test(svg)).length;
    expect(grey(65)).toBeGreaterThan(grey(25));
  });

  it('render to a 500 × 600 picture', async () => {
    const png = await sharp(Buffer.from(portraitSvg(counted(3), 'male', 50))).png().toBuffer();
    const meta = await sharp(png).metadata();
    expect([meta.width, meta.height]).toEqual([500, 600]);
    const { channels } = await sharp(png).stats();
    // Not a flat area: a drawing in several colours.
    expect(channels[0].stdev).toBeGreaterThan(20);
  });
});
