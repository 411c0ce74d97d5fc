import { afterAll, beforeAll } from 'vitest';
import type { StaffRoleName } from '../../common/staff.ts';
import { staffActor, type StaffActor } from '../../server/staff/staff-actor.ts';
import { SYSTEM } from './staff.ts';
import { createTestApp, type DatabaseKind, type TestApp } from './test-app.ts';

/**
 * What the moderation queues' tests set up inside their `describe` per database: a fresh app without demo profiles,
 * closed after the file, and staff members made on demand (moderators of every site unless told otherwise).
 */
export function queueTestApp(kind: DatabaseKind, queue: string) {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await createTestApp(kind, { profiles: 0 });
  });
  afterAll(() => app?.close());
  let made = 0;
  const q = {
    /** The app, once `beforeAll` has made it. */
    get t(): TestApp {
      if (!app) throw new Error('the queue test app is made in beforeAll');
      return app;
    },
    db: () => q.t.database.db,
    async staff(roles: StaffRoleName[] = ['moderator'], siteIds: number[] | null = null): Promise<StaffActor> {
      const n = ++made;
      const staff = await q.t.services.staff.create(SYSTEM, { email: `${queue}${n}.${kind}@example.com`, name: `${queue} mod ${n}`, roles, siteIds });
      return staffActor(q.db(), { id: staff.id, roles, siteIds, companyIds: null });
    },
  };
  return q;
}
