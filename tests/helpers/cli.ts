import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openDatabase } from '../../server/db/client.ts';
import { ROOT_DIR } from '../../server/paths.ts';
import { clonePostgresTemplate, type DatabaseKind } from './test-app.ts';

const run = promisify(execFile);

export interface CliDatabase {
  /** The data directory (photos, PGlite's files). */
  dir: string;
  /** The environment an operator command reads its database from. */
  env: Record<string, string>;
  /** Opens the same database in the test (close it before the command runs: PGlite has one user). */
  open: () => ReturnType<typeof openDatabase>;
  /** Runs `npm run <script>`'s file with these arguments: its exit code and everything it printed. */
  cli: (script: string, ...args: string[]) => Promise<{ code: number; out: string }>;
  drop: () => Promise<void>;
}

/** A configured database of either kind for an operator command (`npm run members:ban` and the like), as on a server. */
export async function cliDatabase(kind: DatabaseKind, prefix: string): Promise<CliDatabase> {
  const dir = mkdtempSync(join(tmpdir(), `amora-${prefix}-`));
  let env: Record<string, string>;
  let open: CliDatabase['open'];
  let dropClone = async () => {};
  if (kind === 'pglite') {
    env = { DATA_DIR: dir, DATABASE_URL: '' };
    open = () => openDatabase({ dataDir: join(dir, 'db') });
  } else {
    const clone = await clonePostgresTemplate();
    dropClone = clone.drop;
    env = { DATA_DIR: dir, DATABASE_URL: clone.url };
    open = () => openDatabase({ url: clone.url });
  }
  const cli = (script: string, ...args: string[]) => run(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT_DIR, env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env },
  }).then((r) => ({ code: 0, out: r.stdout + r.stderr }), (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }));
  const drop = async () => {
    await dropClone();
    rmSync(dir, { recursive: true, force: true });
  };
  return { dir, env, open, cli, drop };
}
