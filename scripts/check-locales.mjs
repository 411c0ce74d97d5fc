// Lists missing and unused UI strings: every language has every key of English, and every English key is used.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const LANGS = ['en', 'nl', 'de', 'it', 'fr', 'es', 'pl', 'da', 'fi', 'nb', 'sv'];
const PLURAL = /_(zero|one|two|few|many|other)$/;
const flat = (o, p = '') => Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? flat(v, `${p}${k}.`) : [p + k]));
const load = (l) => JSON.parse(readFileSync(`locales/${l}.json`, 'utf8'));

const en = new Set(flat(load('en')).map((k) => k.replace(PLURAL, '')));
let problems = 0;
for (const lang of LANGS.slice(1)) {
  const keys = new Set(flat(load(lang)).map((k) => k.replace(PLURAL, '')));
  const missing = [...en].filter((k) => !keys.has(k));
  if (missing.length) {
    problems++;
    console.error(`locales/${lang}.json misses ${missing.length} keys: ${missing.slice(0, 10).join(', ')}`);
  }
}

// A key is used when its full name, or its group with a dynamic suffix, appears in the source.
const files = [];
const walk = (dir) => {
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) walk(p);
    else if (/\.(tsx?|mjs)$/.test(f) && !/\.test\./.test(f)) files.push(readFileSync(p, 'utf8'));
  }
};
['app', 'server', 'common'].forEach(walk);
const source = files.join('\n');
const dynamicGroups = [...source.matchAll(/`([a-z_.]+)\.\$\{/g)].map((m) => m[1]);
const dynamicPrefixes = [...source.matchAll(/`([a-z_]+(?:\.[a-z_]+)+_)\$\{/g)].map((m) => m[1]);
const unused = [...en].filter((key) => {
  const [group, name] = [key.slice(0, key.lastIndexOf('.')), key.slice(key.lastIndexOf('.') + 1)];
  if (source.includes(`'${key}'`) || source.includes(`"${key}"`) || source.includes(`\`${key}\``)) return false;
  // `mail.${kind}` and `notifications.categories.${c}.label` use every key below their group.
  if (dynamicGroups.some((g) => group === g || group.startsWith(`${g}.`)) || dynamicPrefixes.some((p) => key.startsWith(p))) return false;
  // Server error codes are translated as errors.<code>.
  if (group === 'errors' && new RegExp(`['"]${name}['"]`).test(source)) return false;
  if (group === 'interests') return false;
  return true;
});
if (unused.length) {
  problems++;
  console.error(`Unused keys in locales/en.json: ${unused.join(', ')}`);
}
if (problems) process.exit(1);
console.log(`Locales complete: ${LANGS.length} languages, ${en.size} keys.`);
