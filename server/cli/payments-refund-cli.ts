// `npm run payments:refund -- --staff <e-mail> <order id> <reason…>`: refunds a completed order within its site's
// refund_days, as the named finance staff member (audited).
import { failure, staffArgument, withStaff } from './cli-services.ts';

const USAGE = 'Usage: npm run payments:refund -- --staff <e-mail> <order id> <reason>';

const { email, rest } = staffArgument(process.argv.slice(2));
const [orderId, ...words] = rest;
const reason = words.join(' ').trim();
if (!email || !orderId || !reason) {
  console.error(USAGE);
  process.exit(2);
}
try {
  const result = await withStaff(email, (services, staff) => services.records.refundOrder(staff, orderId, reason));
  console.log(`Order ${result.order.id} refunded (${result.order.amount / 100} ${result.order.currency}); ${result.credits_taken} credits taken back.`);
} catch (error) {
  console.error(failure('Not refunded', error));
  process.exitCode = 1;
}
