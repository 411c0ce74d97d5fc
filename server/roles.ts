import type { Role } from './env.ts';

const ROLES: readonly Role[] = ['web', 'worker', 'all'];

/**
 * The role this process runs: `--role web|worker|all` (or `--role=…`) on the command line, else AMORA_ROLE. An unknown
 * role is refused with a message, not taken as the default.
 */
export function resolveRole(argv: readonly string[], fromEnv: Role): Role {
  const at = argv.findIndex((a) => a === '--role' || a.startsWith('--role='));
  if (at === -1) return fromEnv;
  const value = argv[at].startsWith('--role=') ? argv[at].slice('--role='.length) : argv[at + 1];
  if (!ROLES.includes(value as Role)) throw new Error(`--role must be web, worker or all (got ${value === undefined ? 'nothing' : JSON.stringify(value)})`);
  return value as Role;
}

/** What a process of this role runs. */
export function roleRuns(role: Role): { http: boolean; background: boolean } {
  return { http: role !== 'worker', background: role !== 'web' };
}

/**
 * Whether this process migrates the database at start. AMORA_MIGRATE decides when set; otherwise the embedded database
 * always does (one process, `npm start` must work on a fresh machine), and on PostgreSQL only role all does: a fleet
 * runs `npm run db:migrate` once before its web and worker instances start.
 */
export function migratesAtStart(o: { kind: 'pglite' | 'postgres'; role: Role; setting: boolean | undefined }): boolean {
  if (o.setting !== undefined) return o.setting;
  return o.kind === 'pglite' || o.role === 'all';
}

/** Why this role cannot run on this database, or null. The embedded database has one user, so a fleet needs PostgreSQL. */
export function roleRefusal(role: Role, kind: 'pglite' | 'postgres'): string | null {
  if (kind === 'pglite' && role !== 'all') {
    return `--role ${role} needs PostgreSQL (DATABASE_URL): the embedded database serves a single process, which runs everything (role all).`;
  }
  return null;
}
