// `npm run members:ban -- --staff <e-mail> <member id> <fake|scammer|abuse|underage|other> [note…]`: bans a member as
// the named moderator (audited). For a fake profile or a scammer, the credits others spent on messages, gifts and
// photos to it come back.
import { toId } from '#common/input.ts';
import { BAN_REASONS, type BanReason } from '../db/schema.ts';
import { failure, runWhenStarted, staffArgument, withStaff, type Command } from './cli-services.ts';

const USAGE = `Usage: npm run members:ban -- --staff <e-mail> <member id> <${BAN_REASONS.join('|')}> [note]`;

export const banCommand: Command = async (args, io) => {
  const { email, rest } = staffArgument(args);
  const [idArg, reasonArg, ...words] = rest;
  const userId = toId(idArg);
  if (!email || userId === null || !(BAN_REASONS as readonly string[]).includes(reasonArg ?? '')) {
    io.err(USAGE);
    return 2;
  }
  try {
    const { refunds } = await withStaff(email, (services, staff) => services.bans.ban(staff, userId, reasonArg as BanReason, words.join(' ').trim()), io.env);
    const credits = refunds.reduce((sum, r) => sum + r.credits, 0);
    io.out(`Member ${userId} banned (${reasonArg}); ${credits} credits refunded to ${refunds.length} ${refunds.length === 1 ? 'member' : 'members'}.`);
    return 0;
  } catch (error) {
    io.err(failure('Not banned', error));
    return 1;
  }
};

await runWhenStarted(import.meta.url, banCommand);
