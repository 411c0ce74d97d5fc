import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { StaffActor } from '../actor.ts';
import { openDatabase } from '../db/client.ts';
import { dataDirHolder } from '../db/data-dir-lock.ts';
import { loadEnv } from '../env.ts';
import { systemClock } from '../infra/clock.ts';
import { photoStorageFromEnv } from '../infra/storage.ts';
import { ROOT_DIR } from '../paths.ts';
import { createServices } from '../services.ts';
import type { Services } from '../use-cases.ts';

/** A command line that cannot run as asked: its message is for the person at the terminal. */
export class CommandLineRefusal extends Error {}

/** Where a command writes its lines and reads its configuration: the process's own, or a test's. */
export interface CommandIo {
  out: (line: string) => void;
  err: (line: string) => void;
  /** The configuration to read instead of the process's environment. */
  env?: Record<string, string | undefined>;
}

/** An operator command: its arguments (without node and the file) in, its exit code out. */
export type Command = (args: string[], io: CommandIo) => Promise<number>;

/**
 * Runs `command` with the process's arguments, output and environment when `moduleUrl` is the file node was started
 * with (`npm run members:ban`), and does nothing when a test imports the module to call the command in-process.
 */
export async function runWhenStarted(moduleUrl: string, command: Command): Promise<void> {
  const started = process.argv[1];
  if (!started || pathToFileURL(realpathSync(started)).href !== moduleUrl) return;
  const io: CommandIo = { out: (line) => console.log(line), err: (line) => console.error(line) };
  process.exitCode = await command(process.argv.slice(2), io);
}

/**
 * For operator commands: the configured database (migrated) and the services over it, closed afterwards. The embedded
 * database has one user: while a server holds its data directory (its lock file, decision 059) the command refuses.
 */
export async function withServices<T>(run: (services: Services) => Promise<T>, source?: CommandIo['env']): Promise<T> {
  const env = loadEnv(source);
  const dataDir = resolve(ROOT_DIR, env.DATA_DIR);
  const holder = env.DATABASE_URL ? null : dataDirHolder(dataDir);
  if (holder !== null) {
    throw new CommandLineRefusal(
      `The embedded database in ${dataDir} is in use by a running server (process ${holder}). Use the console at /console, or stop the server and run this again.`,
    );
  }
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATABASE_URL ? null : join(dataDir, 'db') });
  try {
    await database.migrate();
    return await run(createServices({ db: database.db, clock: systemClock, storage: photoStorageFromEnv(env, join(dataDir, 'photos')), config: env }));
  } finally {
    await database.close();
  }
}

/**
 * `--staff <e-mail>` taken out of the arguments: the staff member a command acts as. The use cases check their roles
 * and sites as for the console and write them in the audit log.
 */
export function staffArgument(args: string[]): { email: string | null; rest: string[] } {
  const at = args.findIndex((a) => a === '--staff' || a.startsWith('--staff='));
  if (at < 0) return { email: null, rest: args };
  const inline = args[at].startsWith('--staff=') ? args[at].slice('--staff='.length) : null;
  const email = inline ?? args[at + 1] ?? null;
  return { email: email || null, rest: [...args.slice(0, at), ...args.slice(at + (inline === null ? 2 : 1))] };
}

/** `withServices` acting as the named staff member, who must exist and not be disabled. */
export async function withStaff<T>(
  email: string, run: (services: Services, staff: StaffActor) => Promise<T>, source?: CommandIo['env'],
): Promise<T> {
  return withServices(async (services) => {
    const staff = await services.staff.actorByEmail(email);
    if (!staff) throw new CommandLineRefusal(`No active staff member has the e-mail address ${email}. Create one with npm run staff:create.`);
    return run(services, staff);
  }, source);
}

/** What a failed command prints: a refusal as it is, a use case's error by its code, anything else in full. */
export function failure(prefix: string, error: unknown): string {
  if (error instanceof CommandLineRefusal) return error.message;
  const appError = error as { code?: string; params?: Record<string, unknown> } | null;
  if (appError && typeof appError.code === 'string' && appError.params) {
    if (appError.code === 'forbidden') return `${prefix}: that staff member does not have the role this needs for that site.`;
    return `${prefix}: ${appError.code}${Object.keys(appError.params).length ? ` ${JSON.stringify(appError.params)}` : ''}`;
  }
  return String(error instanceof Error ? error.stack ?? error.message : error);
}
