// `npm run payments:refund -- <order id> <reason…>`: refunds a completed order within its site's refund_days (operators).
import { isAppError } from '../infra/errors.ts';
import { withServices } from '../cli-services.ts';
import { OPERATOR_CLI } from '../actor.ts';

const USAGE = 'Usage: npm run payments:refund -- <order id> <reason>';

const [orderId, ...words] = process.argv.slice(2);
const reason = words.join(' ').trim();
if (!orderId || !reason) {
  console.error(USAGE);
  process.exit(2);
}
try {
  const result = await withServices((services) => services.records.refundOrder(OPERATOR_CLI, orderId, reason));
  console.log(`Order ${result.order.id} refunded (${result.order.amount / 100} ${result.order.currency}); ${result.credits_taken} credits taken back.`);
} catch (error) {
  console.error(isAppError(error) ? `Not refunded: ${error.code}${Object.keys(error.params).length ? ` ${JSON.stringify(error.params)}` : ''}` : error);
  process.exitCode = 1;
}
