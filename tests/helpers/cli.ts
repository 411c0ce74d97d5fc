import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openDatabase } from '../../server/db/client.ts';
import type { Command } from '../../server/cli/cli-services.ts';
import { ROOT_DIR } from '../../server/paths.ts';
import { clonePostgresTemplate, type DatabaseKind } from './test-app.ts';

const execute = promisify(execFile);

export interface CliDatabase {
  /** The data directory (photos, PGlite's files). */
  dir: string;
  /** The environment an operator command reads its database from. */
  env: Record<string, string>;
  /** Opens the same database in the test (close it before the command runs: PGlite has one user). */
  open: () => ReturnType<typeof openDatabase>;
  /** Runs `npm run <script>`'s file with these arguments: its exit code and everything it printed. */
  cli: (script: string, ...args: string[]) => Promise<{ code: number; out: string }>;
  /**
   * Runs the same command in this process (its exported function, with this database's configuration): what a spawned
   * `cli` proves about the process itself (argv, exit code, output streams, the lock file) is proven once per tool.
   */
  run: (command: Command, ...args: string[]) => Promise<{ code: number; out: string }>;
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
  const commandEnv = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env };
  const cli = (script: string, ...args: string[]) => execute(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT_DIR, env: commandEnv })
    .then((r) => ({ code: 0, out: r.stdout + r.stderr }), (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }));
  const run = async (command: Command, ...args: string[]) => {
    const lines: string[] = [];
    const code = await command(args, { out: (line) => lines.push(`${line}\n`), err: (line) => lines.push(`${line}\n`), env: commandEnv });
    return { code, out: lines.join('') };
  };
  const drop = async () => {
    await dropClone();
    rmSync(dir, { recursive: true, force: true });
  };
  return { dir, env, open, cli, run, drop };
}
