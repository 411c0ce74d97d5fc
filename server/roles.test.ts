import { describe, expect, it } from 'vitest';
import { loadEnv } from './env.ts';
import { migratesAtStart, resolveRole, roleRefusal, roleRuns } from './roles.ts';

describe('process roles', () => {
  it('come from --role, else AMORA_ROLE, else all', () => {
    expect(resolveRole([], loadEnv({}).AMORA_ROLE)).toBe('all');
    expect(resolveRole([], loadEnv({ AMORA_ROLE: 'worker' }).AMORA_ROLE)).toBe('worker');
    expect(resolveRole(['--role', 'web'], 'worker')).toBe('web');
    expect(resolveRole(['--role=worker'], 'web')).toBe('worker');
    expect(() => resolveRole(['--role'], 'all')).toThrow('--role must be web, worker or all (got nothing)');
    expect(() => resolveRole(['--role', 'admin'], 'all')).toThrow('(got "admin")');
    expect(() => loadEnv({ AMORA_ROLE: 'both' })).toThrow('AMORA_ROLE: must be web, worker or all');
  });

  it('web runs HTTP without jobs, worker jobs without HTTP, all both', () => {
    expect(roleRuns('web')).toEqual({ http: true, background: false });
    expect(roleRuns('worker')).toEqual({ http: false, background: true });
    expect(roleRuns('all')).toEqual({ http: true, background: true });
  });

  it('the embedded database migrates at start; on PostgreSQL only role all, unless AMORA_MIGRATE says', () => {
    expect(migratesAtStart({ kind: 'pglite', role: 'all', setting: undefined })).toBe(true);
    expect(migratesAtStart({ kind: 'postgres', role: 'all', setting: undefined })).toBe(true);
    expect(migratesAtStart({ kind: 'postgres', role: 'web', setting: undefined })).toBe(false);
    expect(migratesAtStart({ kind: 'postgres', role: 'worker', setting: undefined })).toBe(false);
    expect(migratesAtStart({ kind: 'postgres', role: 'all', setting: loadEnv({ AMORA_MIGRATE: '0' }).AMORA_MIGRATE })).toBe(false);
    expect(migratesAtStart({ kind: 'postgres', role: 'web', setting: loadEnv({ AMORA_MIGRATE: '1' }).AMORA_MIGRATE })).toBe(true);
    expect(loadEnv({}).AMORA_MIGRATE).toBeUndefined();
  });

  it('a fleet role on the embedded database is refused: it serves one process', () => {
    expect(roleRefusal('all', 'pglite')).toBeNull();
    expect(roleRefusal('web', 'postgres')).toBeNull();
    expect(roleRefusal('web', 'pglite')).toMatch(/needs PostgreSQL \(DATABASE_URL\)/);
    expect(roleRefusal('worker', 'pglite')).toMatch(/needs PostgreSQL/);
  });

  it('metrics settings are checked', () => {
    expect(() => loadEnv({ METRICS_PORT: '3000' })).toThrow('METRICS_PORT: must differ from PORT');
    expect(() => loadEnv({ METRICS_TOKEN: 'short' })).toThrow('METRICS_TOKEN: must be at least 16 characters');
    expect(() => loadEnv({ METRICS_TOKEN: 'has a space in it, long enough' })).toThrow('METRICS_TOKEN: must not contain spaces');
    expect(() => loadEnv({ OUTBOX_POLL_MS: '10' })).toThrow('OUTBOX_POLL_MS');
    expect(loadEnv({ METRICS_PORT: '9464', OUTBOX_POLL_MS: '30000' })).toMatchObject({ METRICS_PORT: 9464, OUTBOX_POLL_MS: 30000 });
  });
});
