// A worker that claims outbox rows and hangs in the subscriber, to be killed mid-drain by a test.
import { openDatabase } from '../../server/db/client.ts';
import { createEventBus } from '../../server/infra/events.ts';

const database = await openDatabase({ url: process.argv[2] });
const events = createEventBus({ db: database.db, clock: () => new Date(process.argv[3]), logger: { error: () => {} } });
events.durable('account.created', 'test.mail', async () => {
  process.stdout.write('claimed\n');
  await new Promise(() => {});
});
await events.drain();
