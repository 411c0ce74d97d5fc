import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT_DIR } from '../../server/paths.ts';

/** Debian's nginx, where installed (`.ci/run` installs `nginx-light`). */
export const NGINX_BINARY = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));

/**
 * nginx in the foreground with deploy/nginx/amora.conf's server block as it ships: only the two upstream addresses
 * and the listening port are this machine's, and its pid, log and temporary files live in `dir`. `spawnWith` starts
 * the process (a bench passes its own, which stops it with the bench).
 */
export function startNginx(options: {
  dir: string; port: number; upstreams: [number, number]; workerConnections?: number;
  spawnWith?: (command: string, args: string[], options: SpawnOptions) => ChildProcess;
}): ChildProcess {
  const { dir, port, upstreams } = options;
  if (!NGINX_BINARY) throw new Error('nginx is not installed: apt-get install nginx-light');
  const shipped = readFileSync(join(ROOT_DIR, 'deploy', 'nginx', 'amora.conf'), 'utf8');
  const upstreamLines = shipped.match(/^\s*server web\d:3000.*$/gm) ?? [];
  if (upstreamLines.length !== 2) throw new Error('deploy/nginx/amora.conf no longer names two web instances web1:3000 and web2:3000');
  let server = shipped;
  upstreamLines.forEach((line, i) => { server = server.replace(line, line.replace(/web\d:3000/, `127.0.0.1:${upstreams[i]}`)); });
  server = server.replace(/listen 80;/, `listen 127.0.0.1:${port};`);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'];
  for (const sub of temp) mkdirSync(join(dir, sub), { recursive: true });
  const conf = [
    // Run as root (CI), nginx would hand its workers to an unprivileged user that cannot write `dir`.
    process.getuid?.() === 0 ? 'user root;' : '',
    // One process: a test or bench that ends with SIGKILL leaves no orphaned worker holding the port.
    'master_process off;',
    'worker_processes 1;',
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log warn;`,
    `events { worker_connections ${options.workerConnections ?? 1024}; }`,
    'http {',
    '  access_log off;',
    ...temp.map((sub) => `  ${sub}_temp_path ${dir}/${sub};`),
    server,
    '}',
  ].join('\n');
  const file = join(dir, 'nginx.conf');
  writeFileSync(file, conf);
  const args = ['-p', dir, '-c', file, '-e', join(dir, 'error.log')];
  const check = spawnSync(NGINX_BINARY, [...args, '-t'], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx refuses the configuration:\n${check.stderr}`);
  return (options.spawnWith ?? spawn)(NGINX_BINARY, [...args, '-g', 'daemon off;'], { stdio: 'ignore' });
}
