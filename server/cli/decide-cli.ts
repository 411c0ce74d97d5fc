// `npm run notices:decide -- --staff <e-mail> <reference> <in_review|removed|no_action> ["decision text"]`: moves a
// notice to review, or decides it without restricting a member, as the named moderator (audited). A decision mails
// the reporter the outcome. Decisions that restrict a member are taken in the console's notices queue.
import { NOTICE_OUTCOMES, type NoticeOutcome } from '#common/notices.ts';
import { failure, runWhenStarted, staffArgument, withStaff, type Command } from './cli-services.ts';
import { createTranslator } from '../i18n/i18n.ts';
import { registerSubscribers } from '../subscribers.ts';

const USAGE = `Usage: npm run notices:decide -- --staff <e-mail> <reference> <in_review|${NOTICE_OUTCOMES.join('|')}> ["decision text"]`;

export const decideCommand: Command = async (args, io) => {
  const { email, rest } = staffArgument(args);
  const [referenceArg, outcomeArg, ...words] = rest;
  const reference = (referenceArg ?? '').trim().toUpperCase();
  const text = words.join(' ').trim();
  const outcome = outcomeArg ?? '';
  if (!email || !reference || !(outcome === 'in_review' || (NOTICE_OUTCOMES as readonly string[]).includes(outcome)) || (outcome !== 'in_review' && !text)) {
    io.err(USAGE);
    return 2;
  }
  try {
    const notice = await withStaff(email, async (services, staff) => {
      // With the subscribers known, the decision writes its mail to the outbox in its transaction; the
      // server (running now, or at its next start) delivers it with its mail settings.
      registerSubscribers(services, await createTranslator());
      return outcome === 'in_review'
        ? services.notices.review(staff, reference)
        : services.notices.decide(staff, reference, outcome as NoticeOutcome, text);
    }, io.env);
    io.out(`Notice ${notice.reference}: ${notice.status}${outcome === 'in_review' ? '' : '; the outcome mail is queued for the reporter'}.`);
    return 0;
  } catch (error) {
    io.err(failure('Not changed', error));
    return 1;
  }
};

await runWhenStarted(import.meta.url, decideCommand);
