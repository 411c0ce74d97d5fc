import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root: the nearest folder with package.json above this module (source or build). */
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('Cannot find the project root (package.json)');
    dir = parent;
  }
  return dir;
}

export const ROOT_DIR = findRoot();
export const MIGRATIONS_DIR = join(ROOT_DIR, 'server/db/migrations');
export const CONTENT_DIR = join(ROOT_DIR, 'content');
export const PUBLIC_DIR = join(ROOT_DIR, 'public');
export const LOCALES_DIR = join(ROOT_DIR, 'locales');
export const CLIENT_BUILD_DIR = join(ROOT_DIR, 'build/client');
export const SERVER_BUILD_PATH = join(ROOT_DIR, 'build/server/index.js');
