import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { auditLog, staffMembers, staffRecoveryCodes } from '../db/schema.ts';
import { verifyPassword } from '../accounts/passwords.ts';
import { cliDatabase, type CliDatabase } from '../../tests/helpers/cli.ts';
import { staffCreateCommand } from './staff-create-cli.ts';
import { DATABASE_KINDS } from '../../tests/helpers/test-app.ts';

/**
 * `npm run staff:create` against a configured database, as on a server: it prints the password, the TOTP secret and
 * link and ten recovery codes once (what it keeps are hashes), and refuses bad arguments and an address in use.
 * The refusals run the command in-process; the first admin is made by the command as its own process.
 */
describe.each(DATABASE_KINDS)('npm run staff:create on %s', (kind) => {
  let target: CliDatabase | undefined;
  afterAll(() => target?.drop());

  it('creates the first admin and prints its secrets once; refuses bad arguments and a duplicate address', async () => {
    target = await cliDatabase(kind, 'staff-cli');
    const cli = (...args: string[]) => target!.run(staffCreateCommand, ...args);

    expect(await cli('--name', 'Ann')).toMatchObject({ code: 2, out: expect.stringContaining('Usage') });
    expect(await cli('--email', 'ann@example.com', '--name', 'Ann', '--role', 'pirate')).toMatchObject({ code: 2, out: expect.stringContaining('Usage') });

    const made = await target.cli('server/cli/staff-create-cli.ts', '--email', 'Ann@Example.com', '--name', 'Ann Admin');
    expect(made.code).toBe(0);
    const password = /password: +(\S+)/.exec(made.out)?.[1];
    const secret = /TOTP secret: +([A-Z2-7]{32})\b/.exec(made.out)?.[1];
    const codes = made.out.match(/^ {2}[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/gm) ?? [];
    expect(made.out).toContain(`otpauth://totp/Amora%20console:ann%40example.com?secret=${secret}`);
    expect(codes).toHaveLength(10);

    const duplicate = await cli('--email', 'ann@example.com', '--name', 'Ann Again', '--role', 'moderator');
    expect(duplicate).toMatchObject({ code: 1, out: expect.stringContaining('a staff member with the e-mail address ann@example.com exists already') });

    const database = await target.open();
    try {
      const rows = await database.db.select().from(staffMembers);
      expect(rows).toMatchObject([{ email: 'ann@example.com', name: 'Ann Admin', roles: ['admin'], totpSecret: secret }]);
      expect(rows[0].passwordHash).not.toContain(password!);
      expect(await verifyPassword(rows[0].passwordHash, password!)).toBe(true);
      expect(await database.db.$count(staffRecoveryCodes, eq(staffRecoveryCodes.staffId, rows[0].id))).toBe(10);
      expect(await database.db.select({ role: auditLog.role, action: auditLog.action }).from(auditLog)).toEqual([{ role: 'system', action: 'staff.create' }]);
    } finally {
      await database.close();
    }
  }, 120_000);
});
