// `npm run notices:decide -- <reference> <in_review|removed|no_action> ["decision text"]`: moves a notice to
// review, or decides it (operators, until the operator console). A decision mails the reporter the outcome.
import { NOTICE_OUTCOMES, type NoticeOutcome } from '#common/notices.ts';
import { isAppError } from '../infra/errors.ts';
import { withServices } from './cli-services.ts';
import { createTranslator } from '../i18n/i18n.ts';
import { registerSubscribers } from '../subscribers.ts';

const USAGE = `Usage: npm run notices:decide -- <reference> <in_review|${NOTICE_OUTCOMES.join('|')}> ["decision text"]`;

const [referenceArg, outcomeArg, ...words] = process.argv.slice(2);
const reference = (referenceArg ?? '').trim().toUpperCase();
const text = words.join(' ').trim();
const outcome = outcomeArg ?? '';
if (!reference || !(outcome === 'in_review' || (NOTICE_OUTCOMES as readonly string[]).includes(outcome)) || (outcome !== 'in_review' && !text)) {
  console.error(USAGE);
  process.exit(2);
}
try {
  const notice = await withServices(async (services) => {
    // With the subscribers known, the decision writes its mail to the outbox in its transaction; the
    // server (running now, or at its next start) delivers it with its mail settings.
    registerSubscribers(services, await createTranslator());
    return outcome === 'in_review'
      ? services.notices.review(reference)
      : services.notices.decide(reference, outcome as NoticeOutcome, text);
  });
  console.log(`Notice ${notice.reference}: ${notice.status}${outcome === 'in_review' ? '' : '; the outcome mail is queued for the reporter'}.`);
} catch (error) {
  console.error(isAppError(error) ? `Not changed: ${error.code}` : error);
  process.exitCode = 1;
}
