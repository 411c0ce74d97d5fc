import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../helpers/free-port.ts';
import { spawnListening } from '../helpers/listening-process.ts';

/**
 * Sites of a test's own, for tests that stop, kill or multiply server processes and so cannot share the worker's
 * site (scripts/e2e-server.mjs): a copy of the seeded site and production-build processes on it.
 */

export interface SiteCopy {
  dataDir: string;
  /** The copy's PostgreSQL database, or '' when the browser tests run on the embedded one (then it is in dataDir). */
  databaseUrl: string;
  drop(): Promise<void>;
}

/** A copy of the seeded site (tests/e2e/global-setup.ts): its data folder, and its PostgreSQL database if it has one. */
export async function copySeededSite(label: string): Promise<SiteCopy> {
  const dataDir = mkdtempSync(join(tmpdir(), `amora-${label}-`));
  cpSync(process.env.E2E_SEEDED_DATA_DIR!, dataDir, { recursive: true });
  const seeded = process.env.E2E_SEEDED_DATABASE_URL;
  if (!seeded) return { dataDir, databaseUrl: '', drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  const url = new URL(seeded);
  const template = url.pathname.slice(1);
  const name = `${template}_${label}_${process.pid}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: seeded.replace(`/${template}`, '/postgres') });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  url.pathname = `/${name}`;
  return {
    dataDir, databaseUrl: url.toString(),
    drop: async () => {
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface BuiltServer {
  name: string;
  child: ChildProcess;
  port: number;
  /** Where /metrics answers (METRICS_PORT). */
  metricsPort: number;
  /** Everything the process printed so far. */
  output(): string;
  exited: Promise<unknown>;
}

/** The production build (build/server/main.js) on a copy of the site, started and listening. */
export async function startBuiltServer(
  name: string, site: Pick<SiteCopy, 'dataDir' | 'databaseUrl'>, options: { port?: number; env?: Record<string, string> } = {},
): Promise<BuiltServer> {
  const port = options.port ?? await freePort();
  const metricsPort = await freePort();
  const server = spawnListening(['build/server/main.js'], {
    PATH: process.env.PATH ?? '', NODE_ENV: 'production', PORT: String(port), METRICS_PORT: String(metricsPort),
    DATA_DIR: site.dataDir, DATABASE_URL: site.databaseUrl,
    // As for every browser test's site (scripts/e2e-server.mjs): a busy test machine is not an overloaded site.
    ADMISSION_TARGET_MS: '0', ADMISSION_MAX_DELAY_MS: '0',
    ...options.env,
  });
  await server.ready.catch((error: Error) => { throw new Error(`${name}: ${error.message}`); });
  return { name, child: server.child, port, metricsPort, output: server.output, exited: server.exited };
}

/** Stops a server as an orchestrator would (SIGTERM) and waits for it to exit. */
export async function stopBuiltServer(server: BuiltServer): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  await server.exited;
}
