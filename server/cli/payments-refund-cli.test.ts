import { join } from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { addCredits } from '../credits/ledger.ts';
import { auditLog, creditPackages, orderRefunds, orders, users } from '../db/schema.ts';
import { seedDemoSite } from '../seed/seed.ts';
import { cliDatabase, type CliDatabase } from '../../tests/helpers/cli.ts';
import { refundCommand } from './payments-refund-cli.ts';
import { staffCreateCommand } from './staff-create-cli.ts';
import { DATABASE_KINDS, testClock } from '../../tests/helpers/test-app.ts';

/**
 * `npm run payments:refund` with and without `--amount`: a part in cents or in units, then all that is left; bad
 * amounts and more than is left are refused and change nothing.
 */
describe.each(DATABASE_KINDS)('npm run payments:refund on %s', (kind) => {
  let target: CliDatabase | undefined;
  afterAll(() => target?.drop());

  it('refunds a part in cents, a part in units, then the rest; refuses bad amounts', async () => {
    target = await cliDatabase(kind, 'refund-cli');
    let database = await target.open();
    await database.migrate();
    await seedDemoSite(database.db, { photosDir: join(target.dir, 'photos'), clock: testClock(), profileCount: 1 });
    const [member] = await database.db.select({ id: users.id }).from(users).orderBy(asc(users.id)).limit(1);
    const [pkg] = await database.db.select({ id: creditPackages.id }).from(creditPackages).limit(1);
    const id = 'ord_cli_refund_0001';
    // Completed just now (the command reads the real clock): 10 credits for €9.99.
    await database.db.insert(orders).values({
      id, userId: member.id, packageId: pkg.id, credits: 10, amountCents: 999, currency: 'EUR', paymentmethod: 'creditcard',
      status: 'completed', idempotencyKey: id, completedAt: new Date(),
    });
    await database.db.update(users).set({ credits: 0 }).where(eq(users.id, member.id));
    await database.db.transaction((tx) => addCredits(tx, member.id, 10, 'purchase', id));
    await database.close();

    expect(await target.run(staffCreateCommand, '--email', 'money@example.com', '--name', 'Fi', '--role', 'finance')).toMatchObject({ code: 0 });
    // In this process (what a spawned command proves about argv, exit codes and the lock is proven by the other tools' tests).
    const cli = (...args: string[]) => target!.run(refundCommand, '--staff', 'money@example.com', ...args);

    expect(await cli(id)).toMatchObject({ code: 2, out: expect.stringContaining('[--amount <cents or 12.34>]') });
    expect(await cli(id, '--amount', '1.005', 'Rounding')).toMatchObject({ code: 2, out: expect.stringContaining('1.005 is not an amount of whole cents') });
    expect(await cli(id, '--amount', '250', 'Charged', 'twice')).toMatchObject({
      code: 0, out: expect.stringContaining(`Order ${id}: 2.50 EUR refunded (2.50 of 9.99 EUR refunded so far); 2 credits taken back.`),
    });
    expect(await cli(id, '--amount=5.00', 'Goodwill')).toMatchObject({ code: 0, out: expect.stringContaining('5.00 EUR refunded (7.50 of 9.99 EUR refunded so far)') });
    expect(await cli(id, '--amount', '2.50', 'Too much')).toMatchObject({ code: 1, out: expect.stringContaining('refund_amount_exceeds_remaining {"remaining":"2.49 EUR"}') });
    expect(await cli(id, 'The', 'rest')).toMatchObject({ code: 0, out: expect.stringContaining('2.49 EUR refunded (refunded in full); 3 credits taken back.') });

    database = await target.open();
    try {
      const [order] = await database.db.select().from(orders).where(eq(orders.id, id));
      expect(order).toMatchObject({ refundedCents: 999, refundReason: 'The rest' });
      expect(order.refundedAt).not.toBeNull();
      expect((await database.db.select().from(orderRefunds).where(eq(orderRefunds.orderId, id)).orderBy(asc(orderRefunds.id)))
        .map((r) => [r.amountCents, r.creditsTaken, r.reason])).toEqual([[250, 2, 'Charged twice'], [500, 5, 'Goodwill'], [249, 3, 'The rest']]);
      expect((await database.db.select({ credits: users.credits }).from(users).where(eq(users.id, member.id)))[0].credits).toBe(0);
      expect(await database.db.$count(auditLog, eq(auditLog.action, 'order.refund'))).toBe(3);
    } finally {
      await database.close();
    }
  }, 120_000); // Each command opens the database anew: on PGlite some seconds each.
});
