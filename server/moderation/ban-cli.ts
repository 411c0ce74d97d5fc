// `npm run members:ban -- <member id> <fake|scammer|abuse|underage|other> [note…]`: bans a member (operators).
// For a fake profile or a scammer, the credits others spent on messages, gifts and photos to it come back.
import { toId } from '#common/input.ts';
import { BAN_REASONS, type BanReason } from '../db/schema.ts';
import { isAppError } from '../infra/errors.ts';
import { withServices } from '../cli-services.ts';
import { OPERATOR_CLI } from '../actor.ts';

const USAGE = `Usage: npm run members:ban -- <member id> <${BAN_REASONS.join('|')}> [note]`;

const [idArg, reasonArg, ...words] = process.argv.slice(2);
const userId = toId(idArg);
if (userId === null || !(BAN_REASONS as readonly string[]).includes(reasonArg ?? '')) {
  console.error(USAGE);
  process.exit(2);
}
try {
  const { refunds } = await withServices((services) => services.bans.ban(OPERATOR_CLI, userId, reasonArg as BanReason, words.join(' ').trim()));
  const credits = refunds.reduce((sum, r) => sum + r.credits, 0);
  console.log(`Member ${userId} banned (${reasonArg}); ${credits} credits refunded to ${refunds.length} ${refunds.length === 1 ? 'member' : 'members'}.`);
} catch (error) {
  console.error(isAppError(error) ? `Not banned: ${error.code}` : error);
  process.exitCode = 1;
}
