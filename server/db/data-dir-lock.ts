import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file a running server keeps in its data directory while it holds the embedded database (decision 059). */
export const LOCK_FILE = 'server.lock';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists, it belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of a running process that holds the data directory, or null (no lock, or a stale one whose process is gone). */
export function dataDirHolder(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(join(dataDir, LOCK_FILE), 'utf8').trim());
  } catch {
    return null;
  }
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) ? pid : null;
}

/**
 * Takes the data directory for this process: a lock file with its pid, which command-line tools read before they open
 * the embedded database (PGlite has one user; two processes on its files corrupt them). A stale lock, whose process
 * is gone, is taken over. Released by `release()` at shutdown, or when the process exits.
 */
export function lockDataDir(dataDir: string): { release(): void } {
  const holder = dataDirHolder(dataDir);
  if (holder !== null) throw new Error(`The data directory ${dataDir} is in use by another server (process ${holder}).`);
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  writeFileSync(path, `${process.pid}\n`);
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.off('exit', release);
    try {
      if (readFileSync(path, 'utf8').trim() === String(process.pid)) unlinkSync(path);
    } catch {
      // already gone
    }
  };
  process.on('exit', release);
  return { release };
}
