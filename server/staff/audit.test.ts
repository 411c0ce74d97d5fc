import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, staffMembers } from '../db/schema.ts';
import { ROOT_DIR } from '../paths.ts';
import { DATABASE_KINDS, freshDatabase, testClock } from '../../tests/helpers/test-app.ts';
import { createAuditLog } from './audit.ts';
import type { StaffActor } from './staff-actor.ts';

const SERVER_DIR = join(ROOT_DIR, 'server');

it('has no update or delete path anywhere in the server\'s code', () => {
  const files = readdirSync(SERVER_DIR, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  expect(files.length).toBeGreaterThan(100);
  for (const file of files) {
    const text = readFileSync(join(SERVER_DIR, file), 'utf8');
    expect(text, file).not.toMatch(/\.(update|delete)\(\s*auditLog\b/);
    expect(text, file).not.toMatch(/\b(update|delete\s+from|truncate)\s+"?audit_log\b/i);
  }
});

describe.each(DATABASE_KINDS)('the audit log on %s', (kind) => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  const clock = testClock();
  const audit = createAuditLog({ clock });

  beforeAll(async () => {
    database = await freshDatabase(kind);
  });
  afterAll(() => database?.drop());

  it('is written in the caller\'s transaction: kept with its commit, gone with its rollback', async () => {
    await database.db.transaction(async (tx) => {
      await audit.record(tx, { actor: { kind: 'system', job: 'test' }, role: 'moderator', action: 'member.ban', objectType: 'member', objectId: 7, memberId: 7, before: { banned: false }, after: { banned: true } });
    });
    const failure = new Error('the action failed');
    await expect(database.db.transaction(async (tx) => {
      await audit.record(tx, { actor: { kind: 'system', job: 'test' }, role: 'moderator', action: 'member.ban', objectType: 'member', objectId: 8, memberId: 8 });
      throw failure;
    })).rejects.toBe(failure);
    const rows = await database.db.select().from(auditLog).where(eq(auditLog.action, 'member.ban'));
    expect(rows).toEqual([{
      id: expect.any(Number), staffId: null, role: 'system', action: 'member.ban', objectType: 'member', objectId: '7', memberId: 7,
      before: { banned: false }, after: { banned: true }, ip: null, at: clock(),
    }]);
  });

  it('writes the staff member and the role that allowed the action, or admin when an admin acted without it', async () => {
    const [staff] = await database.db.insert(staffMembers).values({
      email: 'mo@example.com', name: 'Mo', passwordHash: 'x', roles: ['moderator', 'admin'], totpSecret: 'GEZDGNBV',
    }).returning();
    const moderator: StaffActor = { kind: 'staff', staffId: staff.id, roles: ['moderator'], siteIds: null, companyIds: null };
    await database.db.transaction(async (tx) => {
      await audit.record(tx, { actor: moderator, role: 'moderator', action: 'photo.reject', objectType: 'photo', objectId: 1, ip: '192.0.2.1' });
      await audit.record(tx, { actor: { ...moderator, roles: ['admin'] }, role: 'moderator', action: 'photo.reject', objectType: 'photo', objectId: 2 });
    });
    const rows = await database.db.select({ staffId: auditLog.staffId, role: auditLog.role, objectId: auditLog.objectId, ip: auditLog.ip })
      .from(auditLog).where(eq(auditLog.action, 'photo.reject')).orderBy(auditLog.id);
    expect(rows).toEqual([
      { staffId: staff.id, role: 'moderator', objectId: '1', ip: '192.0.2.1' },
      { staffId: staff.id, role: 'admin', objectId: '2', ip: null },
    ]);
  });

  it('refuses UPDATE, DELETE and TRUNCATE in the database itself', async () => {
    expect(await database.db.$count(auditLog)).toBeGreaterThan(0);
    // Drizzle wraps the database's error; its cause is what the trigger raised.
    const refusal = (statement: ReturnType<typeof sql>) => database.db.execute(statement)
      .then(() => 'done', (error: Error & { cause?: Error }) => error.cause?.message ?? error.message);
    expect(await refusal(sql`update audit_log set action = 'nothing'`)).toBe('audit_log is append-only: UPDATE refused');
    expect(await refusal(sql`delete from audit_log`)).toBe('audit_log is append-only: DELETE refused');
    expect(await refusal(sql`truncate audit_log`)).toBe('audit_log is append-only: TRUNCATE refused');
    expect(await database.db.$count(auditLog, eq(auditLog.action, 'nothing'))).toBe(0);
    expect(await database.db.$count(auditLog)).toBeGreaterThan(0);
  });
});
