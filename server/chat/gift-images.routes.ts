import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import type { UseCases } from '../use-cases.ts';

const FILE = /^gift-[a-f0-9]{24}\.webp$/;

/**
 * The images of gifts made in the console, for everyone (the gift picker, a sent gift in a chat, the console). A file
 * name is random and never reused for other bytes (a new image gets a new name), so it may be cached for good.
 */
export function giftImageRoutes(services: UseCases) {
  return new Hono<AppEnv>().get('/:file', async (c) => {
    const file = c.req.param('file');
    if (!FILE.test(file)) return c.notFound();
    const body = await services.giftImages.file(file);
    if (!body) return c.notFound();
    return new Response(new Uint8Array(body), {
      headers: {
        'Content-Type': 'image/webp', 'Content-Length': String(body.length), 'Cache-Control': 'public, max-age=31536000, immutable',
        'X-Content-Type-Options': 'nosniff', 'Cross-Origin-Resource-Policy': 'cross-origin',
      },
    });
  });
}
