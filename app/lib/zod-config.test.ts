import { describe, expect, it, vi } from 'vitest';
import './zod-config.ts';
import { z } from 'zod';
import { config } from 'zod/v4/core';

describe('Zod in the browser', () => {
  it('parses without compiling, so a strict Content-Security-Policy has nothing to refuse', () => {
    expect(config().jitless).toBe(true);
    // Every `new Function` (Zod's probe and its compiled parsers) passes through this stand-in while a form's schema is made and used.
    const real = globalThis.Function;
    const made = vi.fn((...args: string[]) => new real(...args));
    globalThis.Function = made as unknown as FunctionConstructor;
    try {
      const schema = z.object({ email: z.string().email(), age: z.number().int(), about: z.object({ text: z.string() }).optional() });
      expect(schema.parse({ email: 'a@example.org', age: 30, about: { text: 'hi' } })).toEqual({ email: 'a@example.org', age: 30, about: { text: 'hi' } });
      expect(schema.safeParse({ email: 'nope', age: 1.5 }).success).toBe(false);
    } finally {
      globalThis.Function = real;
    }
    expect(made).not.toHaveBeenCalled();
  });
});
