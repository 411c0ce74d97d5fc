// Blocked IBANs and mobile numbers for direct debit, as the named finance staff member:
//   npm run payments:block -- --staff <e-mail> iban <IBAN> [--site <domain>] [reason…]
//   npm run payments:block -- --staff <e-mail> phone <+number> [--site <domain>] [reason…]
//   npm run payments:block -- --staff <e-mail> unblock iban|phone <value> [--site <domain>]
//   npm run payments:block -- --staff <e-mail> list
// Without --site the block holds on every site. Only a hash of the value is stored; listings show it masked.
import { failure, staffArgument, withStaff } from './cli-services.ts';

const USAGE = 'Usage: npm run payments:block -- --staff <e-mail> (iban|phone) <value> [--site <domain>] [reason]  |  unblock (iban|phone) <value> [--site <domain>]  |  list';

const { email, rest: args } = staffArgument(process.argv.slice(2));
const siteAt = args.indexOf('--site');
const siteDomain = siteAt >= 0 ? args[siteAt + 1] : undefined;
const rest = siteAt >= 0 ? [...args.slice(0, siteAt), ...args.slice(siteAt + 2)] : args;
const isKind = (v: string | undefined): v is 'iban' | 'phone' => v === 'iban' || v === 'phone';

try {
  if (!email) {
    console.error(USAGE);
    process.exitCode = 2;
  } else if (rest[0] === 'list') {
    const rows = await withStaff(email, (s, staff) => s.directDebit.blocks(staff));
    for (const r of rows) console.log(`${r.id}\t${r.kind}\t${r.masked}\t${r.site ?? '(every site)'}\t${r.createdAt.toISOString()}\t${r.reason}`);
    if (!rows.length) console.log('Nothing is blocked.');
  } else if (rest[0] === 'unblock' && isKind(rest[1]) && rest[2]) {
    const kind = rest[1];
    const value = rest[2];
    const removed = await withStaff(email, (s, staff) => s.directDebit.unblock(staff, { kind, value, siteDomain }));
    console.log(removed ? 'Unblocked.' : 'It was not blocked there.');
  } else if (isKind(rest[0]) && rest[1]) {
    const kind = rest[0];
    // An IBAN may be given in groups of four: the words up to the reason are joined.
    const words = rest.slice(1);
    const valueWords = kind === 'iban' ? words.filter((w) => /^[A-Za-z0-9]{1,4}$/.test(w) || /^[A-Za-z]{2}[0-9]{2}/.test(w)) : [words[0]];
    const value = valueWords.join('');
    const reason = words.slice(valueWords.length).join(' ');
    const done = await withStaff(email, (s, staff) => s.directDebit.block(staff, { kind, value, siteDomain, reason }));
    console.log(`Blocked ${done.kind} ${done.masked} on ${done.site ?? 'every site'}.`);
  } else {
    console.error(USAGE);
    process.exitCode = 2;
  }
} catch (error) {
  console.error(failure('Not done', error));
  process.exitCode = 1;
}
