import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip as gzipCallback } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzip = promisify(gzipCallback);
import type { MiddlewareHandler } from 'hono';

/** Bodies smaller than this gain less than the headers cost. */
const MIN_BYTES = 1024;
const COMPRESSIBLE = /^(text\/(html|css|plain|xml|javascript)|application\/(json|javascript|xml|manifest\+json|problem\+json)|image\/svg\+xml)/i;

/** The encoding to use for an Accept-Encoding header: brotli first, then gzip, else none. */
export function chooseEncoding(accept: string | undefined): 'br' | 'gzip' | null {
  const offered = new Map<string, number>();
  for (const part of (accept ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    offered.set(name, Number.isFinite(weight) ? weight : 0);
  }
  if ((offered.get('br') ?? 0) > 0) return 'br';
  if ((offered.get('gzip') ?? 0) > 0) return 'gzip';
  return null;
}

/**
 * Compresses dynamic responses (server-rendered HTML, JSON) with brotli or gzip: whole when they are whole in
 * memory, chunk by chunk otherwise (so that a streamed answer keeps streaming). Static assets come precompressed from the build (see
 * scripts/precompress.mjs) and pass through untouched, as does anything already encoded, images,
 * event streams and small bodies.
 */
export function compress(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    // The headers first: reading `res.body` turns @hono/node-server's lightweight Response into a full one, so
    // it is only read when the answer is compressed (a bodiless answer has no compressible content type anyway).
    if (c.req.method === 'HEAD' || res.status === 204 || res.status === 304 || res.headers.has('content-encoding')) return;
    if (!COMPRESSIBLE.test(res.headers.get('content-type') ?? '')) return;
    if (/no-transform/i.test(res.headers.get('cache-control') ?? '')) return;
    const length = res.headers.get('content-length');
    if (length !== null && Number(length) < MIN_BYTES) return;
    // Whatever the outcome, the answer depends on Accept-Encoding.
    res.headers.append('Vary', 'Accept-Encoding');
    const encoding = chooseEncoding(c.req.header('accept-encoding'));
    if (!encoding || !res.body) return;
    const headers = new Headers(res.headers);
    headers.delete('Content-Length');
    // JSON and pages are whole in memory anyway (app/entry.server.tsx renders a page before answering): their size
    // decides, and they are compressed in one go.
    if (/json|html/i.test(headers.get('content-type') ?? '')) {
      const data = Buffer.from(await res.arrayBuffer());
      if (data.length < MIN_BYTES) {
        c.res = new Response(data, { status: res.status, statusText: res.statusText, headers });
        return;
      }
      headers.set('Content-Encoding', encoding);
      const packed = encoding === 'br'
        ? await brotli(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } })
        : await gzip(data, { level: 6 });
      c.res = new Response(packed, { status: res.status, statusText: res.statusText, headers });
      return;
    }
    const zip = encoding === 'br'
      ? createBrotliCompress({ flush: constants.BROTLI_OPERATION_FLUSH, params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
      : createGzip({ flush: constants.Z_SYNC_FLUSH, level: 6 });
    const body = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream).pipe(zip);
    headers.set('Content-Encoding', encoding);
    c.res = new Response(Readable.toWeb(body) as ReadableStream, { status: res.status, statusText: res.statusText, headers });
  };
}
