/**
 * Imported first by the browser's entry, before any schema is made. Zod compiles object parsers with `new Function`
 * where it may, and finds out by trying one: the page's Content-Security-Policy (no 'unsafe-eval') refuses it, and the
 * browser reports each refusal as a violation even though Zod catches it. The forms' schemas are small: the browser
 * parses them without compiling (Zod's `jitless`). The server keeps the compiled parsers.
 *
 * Zod keeps its settings on `globalThis.__zod_globalConfig`, one object for every copy of it, made at its first load
 * unless there. Set here without loading Zod: its core, which `z.config` would bring, is some 20 KB of script the
 * first screen of a page without a form does not need. app/lib/zod-config.test.ts checks that Zod reads it.
 */
const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
(zodGlobal.__zod_globalConfig ??= {}).jitless = true;

export {};
