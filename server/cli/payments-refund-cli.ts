// `npm run payments:refund -- --staff <e-mail> <order id> [--amount <cents or 12.34>] <reason…>`: refunds a completed
// order within its site's refund_days, whole (all that is left) or a part, as the named finance staff member (audited).
import { randomUUID } from 'node:crypto';
import { moneyUnits, parseMoneyAmount } from '#common/refunds.ts';
import { failure, runWhenStarted, staffArgument, withStaff, type Command } from './cli-services.ts';

const USAGE = [
  'Usage: npm run payments:refund -- --staff <e-mail> <order id> [--amount <cents or 12.34>] <reason>',
  '  --amount  the part to refund: 1234 is cents, 12.34 the currency\'s units; without it, all that is left of the order.',
].join('\n');

export const refundCommand: Command = async (args, io) => {
  const { email, rest } = staffArgument(args);
  const at = rest.findIndex((a) => a === '--amount' || a.startsWith('--amount='));
  const amountText = at < 0 ? null : rest[at].startsWith('--amount=') ? rest[at].slice('--amount='.length) : (rest[at + 1] ?? '');
  const [orderId, ...words] = at < 0 ? rest : [...rest.slice(0, at), ...rest.slice(at + (rest[at].startsWith('--amount=') ? 1 : 2))];
  const reason = words.join(' ').trim();
  const amountCents = amountText === null ? null : parseMoneyAmount(amountText, 'cents');
  if (!email || !orderId || !reason || (amountText !== null && amountCents === null)) {
    io.err(amountText !== null && amountCents === null ? `Not refunded: ${amountText} is not an amount of whole cents.\n${USAGE}` : USAGE);
    return 2;
  }
  try {
    // One key per run: the run refunds once even if the provider is asked again inside it; running it again is a new refund.
    const result = await withStaff(email, (services, staff) => services.records.refundOrder(staff, orderId, { reason, amountCents, idempotencyKey: randomUUID() }), io.env);
    const { order } = result;
    const state = order.refunded_at ? 'refunded in full' : `${moneyUnits(order.refunded_amount)} of ${moneyUnits(order.amount)} ${order.currency} refunded so far`;
    io.out(`Order ${order.id}: ${moneyUnits(result.amount)} ${order.currency} refunded (${state}); ${result.credits_taken} credits taken back.`);
    return 0;
  } catch (error) {
    io.err(failure('Not refunded', error));
    return 1;
  }
};

await runWhenStarted(import.meta.url, refundCommand);
