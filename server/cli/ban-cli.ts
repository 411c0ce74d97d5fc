// `npm run members:ban -- --staff <e-mail> <member id> <fake|scammer|abuse|underage|other> [note…]`: bans a member as
// the named moderator (audited). For a fake profile or a scammer, the credits others spent on messages, gifts and
// photos to it come back.
import { toId } from '#common/input.ts';
import { BAN_REASONS, type BanReason } from '../db/schema.ts';
import { failure, staffArgument, withStaff } from './cli-services.ts';

const USAGE = `Usage: npm run members:ban -- --staff <e-mail> <member id> <${BAN_REASONS.join('|')}> [note]`;

const { email, rest } = staffArgument(process.argv.slice(2));
const [idArg, reasonArg, ...words] = rest;
const userId = toId(idArg);
if (!email || userId === null || !(BAN_REASONS as readonly string[]).includes(reasonArg ?? '')) {
  console.error(USAGE);
  process.exit(2);
}
try {
  const { refunds } = await withStaff(email, (services, staff) => services.bans.ban(staff, userId, reasonArg as BanReason, words.join(' ').trim()));
  const credits = refunds.reduce((sum, r) => sum + r.credits, 0);
  console.log(`Member ${userId} banned (${reasonArg}); ${credits} credits refunded to ${refunds.length} ${refunds.length === 1 ? 'member' : 'members'}.`);
} catch (error) {
  console.error(failure('Not banned', error));
  process.exitCode = 1;
}
