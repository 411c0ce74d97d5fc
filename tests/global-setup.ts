import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../server/db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated template database on the PostgreSQL server, or null when none is reachable. */
    pgTemplate: { baseUrl: string; template: string } | null;
  }
}

const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Migrates one template database; each test file then clones it (CREATE DATABASE … TEMPLATE),
 * so every file gets a fresh, migrated PostgreSQL database in milliseconds.
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL ?? DEFAULT_URL;
  const template = `amora_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    if (process.env.REQUIRE_POSTGRES === '1') throw new Error(`PostgreSQL is required but not reachable at ${url}: ${(error as Error).message}`, { cause: error });
    console.warn(`PostgreSQL not reachable at ${url}: integration tests run on PGlite only.`);
    project.provide('pgTemplate', null);
    return;
  }
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.query(`CREATE DATABASE ${template}`);
  const templateUrl = new URL(url);
  templateUrl.pathname = `/${template}`;
  const database = await openDatabase({ url: templateUrl.toString() });
  await database.migrate();
  await database.close();
  project.provide('pgTemplate', { baseUrl: url, template });

  return async () => {
    const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`${template}%`]);
    for (const row of rows.reverse()) await admin.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`);
    await admin.end();
  };
}
