import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { LIVE_PATH } from '../../common/live.ts';
import { ENV_NAMES, loadEnv } from '../../server/env.ts';
import { operationsOnlyApp } from '../../server/http/operations.routes.ts';
import { ROOT_DIR } from '../../server/paths.ts';
import { resolveRole } from '../../server/roles.ts';

/**
 * The machines that run the tests cannot build images or run a cluster: this reads the deployment files and checks
 * every command, port, path, probe and variable they name against the code, so they cannot drift from it.
 */
const read = (path: string) => readFileSync(join(ROOT_DIR, path), 'utf8');
type Doc = Record<string, any>;

const packageJson = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
const dockerfile = read('Dockerfile');
const compose = parse(read('compose.yaml'), { merge: true }) as Doc;
const nginx = read('deploy/nginx/amora.conf');
const kustomization = parse(read('deploy/k8s/kustomization.yaml')) as Doc;
const manifests: Doc[] = (kustomization.resources as string[]).flatMap((file) =>
  parseAllDocuments(read(`deploy/k8s/${file}`)).map((d) => d.toJS() as Doc));
const ofKind = (kind: string) => manifests.filter((m) => m.kind === kind);
const named = (kind: string, name: string) => {
  const found = ofKind(kind).find((m) => m.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in deploy/k8s`);
  return found;
};

/** The files `npm run build` writes for the server (scripts/build-server.mjs), which the image's commands start. */
const buildScript = read('scripts/build-server.mjs');
const builtFiles = new Set([...buildScript.matchAll(/outfile: '([^']+)'|writeFile\('([^']+)'/g)].map((m) => m[1] ?? m[2]));
const defaults = loadEnv({});
const OPERATIONS_PATHS = ['/healthz', '/readyz'];

/** A command that starts Amora: node and a built file, with arguments the program understands. */
function checkCommand(command: string[], where: string) {
  expect(command[0], where).toBe('node');
  expect(builtFiles, `${where}: ${command[1]} is not built by scripts/build-server.mjs`).toContain(command[1]);
  if (command[1] === 'build/server/main.js') {
    // Only --role is understood; resolveRole refuses anything else it is given.
    const args = command.slice(2);
    if (args.length) expect(args[0], where).toBe('--role');
    expect(() => resolveRole(args, 'all'), where).not.toThrow();
  } else {
    expect(command.slice(2), where).toEqual([]);
  }
}

function checkEnvNames(names: string[], where: string) {
  expect(names.length, where).toBeGreaterThan(0);
  for (const name of names) expect(ENV_NAMES, `${where} names ${name}, which server/env.ts does not read`).toContain(name);
}

describe('Dockerfile', () => {
  it('builds with npm ci and npm run build on Debian slim Node 20, runs as a non-root user, and checks /healthz', () => {
    const froms = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const image of froms.filter((f) => f.includes(':'))) expect(image).toBe('node:20-bookworm-slim');
    expect(dockerfile).toMatch(/^RUN npm ci\b/m);
    expect(dockerfile).toMatch(/^RUN npm ci --omit=dev\b/m);
    for (const [, script] of dockerfile.matchAll(/npm run ([\w:-]+)/g)) expect(packageJson.scripts, script).toHaveProperty(script);
    expect(dockerfile).toMatch(/^USER node$/m);
    // The last stage copies the production dependencies, not the build stage's full node_modules.
    expect(dockerfile).toMatch(/^COPY --from=prod-deps \/app\/node_modules/m);
  });

  it('copies files that exist, exposes the port the server listens on, and starts a built file', () => {
    for (const [, source] of dockerfile.matchAll(/^COPY (?!--from)(\S+)/gm)) expect(existsSync(join(ROOT_DIR, source)), source).toBe(true);
    // Everything the server reads at run time beside its build (server/paths.ts) is copied.
    for (const dir of ['server/db/migrations', 'locales', 'content', 'public']) expect(dockerfile).toMatch(new RegExp(`^COPY ${dir} `, 'm'));
    const expose = Number(/^EXPOSE (\d+)$/m.exec(dockerfile)?.[1]);
    const envPort = Number(/PORT=(\d+)/.exec(dockerfile)?.[1]);
    expect(expose).toBe(defaults.PORT);
    expect(envPort).toBe(defaults.PORT);
    checkEnvNames([...dockerfile.matchAll(/^\s*(?:ENV\s+)?([A-Z_]+)=\S+(?: \\)?$/gm)].map((m) => m[1]), 'Dockerfile ENV');
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]) as string[];
    checkCommand(cmd, 'Dockerfile CMD');
    const healthcheck = /^HEALTHCHECK[\s\S]*?CMD (\[.*\])$/m.exec(dockerfile)![1];
    expect(healthcheck).toContain("'/healthz'");
  });

  it('.dockerignore keeps local data, secrets and dependencies out of the build context', () => {
    const ignored = read('.dockerignore').split('\n').filter((l) => l && !l.startsWith('#'));
    for (const entry of ['node_modules', 'build', 'data', '.env', '.git']) expect(ignored).toContain(entry);
    // Nothing the image copies is ignored.
    for (const [, source] of dockerfile.matchAll(/^COPY (?!--from)(\S+)/gm)) expect(ignored).not.toContain(source.split('/')[0]);
  });
});

describe('compose.yaml', () => {
  const services = compose.services as Record<string, Doc>;
  const amora = Object.entries(services).filter(([, s]) => s.image === 'amora:local');

  it('runs two web instances, one worker and the migration once, behind a proxy, on PostgreSQL, Redis, S3 and a mail catcher', () => {
    const roleOf = (s: Doc) => (s.command ? resolveRole(s.command.slice(2), s.environment?.AMORA_ROLE ?? 'all') : s.environment?.AMORA_ROLE);
    expect(amora.filter(([, s]) => roleOf(s) === 'web').map(([n]) => n)).toEqual(['web1', 'web2']);
    expect(amora.filter(([, s]) => roleOf(s) === 'worker').map(([n]) => n)).toEqual(['worker']);
    expect(services.migrate.command).toEqual(['node', 'build/server/migrate.js']);
    for (const [name, s] of amora.filter(([n]) => n !== 'migrate')) {
      expect(s.depends_on.migrate.condition, name).toBe('service_completed_successfully');
      expect(parseInt(s.stop_grace_period, 10) * 1000, name).toBeGreaterThan(2 * Number(s.environment.SHUTDOWN_TIMEOUT_MS));
    }
    expect(services.postgres.image).toMatch(/^postgres:15/);
    expect(services.redis.image).toMatch(/^redis:/);
    expect(services.minio.image).toMatch(/^minio\/minio/);
    expect(services.mailpit.image).toMatch(/^axllent\/mailpit/);
    expect(services.proxy.volumes[0]).toBe('./deploy/nginx/amora.conf:/etc/nginx/conf.d/default.conf:ro');
  });

  it('names only variables server/env.ts reads, with values it accepts, and services that exist', () => {
    for (const [name, s] of amora) {
      checkEnvNames(Object.keys(s.environment), `compose ${name}`);
      expect(() => loadEnv(Object.fromEntries(Object.entries(s.environment).map(([k, v]) => [k, String(v)]))), name).not.toThrow();
      if (s.command) checkCommand(s.command, `compose ${name}`);
      for (const url of Object.values(s.environment).filter((v): v is string => typeof v === 'string' && /^\w+:\/\/[^/]*@?[\w-]+:\d+/.test(v))) {
        const host = new URL(url).hostname;
        if (host !== 'localhost') expect(Object.keys(services), `${name}: ${url}`).toContain(host);
      }
    }
    const env = services.web1.environment;
    expect(new URL(env.DATABASE_URL).username).toBe(services.postgres.environment.POSTGRES_USER);
    expect(decodeURIComponent(new URL(env.DATABASE_URL).password)).toBe(services.postgres.environment.POSTGRES_PASSWORD);
    expect(env.S3_ACCESS_KEY_ID).toBe(services.minio.environment.MINIO_ROOT_USER);
    expect(env.S3_SECRET_ACCESS_KEY).toBe(services.minio.environment.MINIO_ROOT_PASSWORD);
    expect(services['minio-bucket'].entrypoint.join(' ')).toContain(`local/${env.S3_BUCKET}`);
  });

  it('the proxy sends HTTP and the live socket to both web instances on the port they listen on', () => {
    const upstream = [...nginx.matchAll(/^\s*server ([\w-]+):(\d+)/gm)].map((m) => [m[1], Number(m[2])]);
    expect(upstream).toEqual([['web1', defaults.PORT], ['web2', defaults.PORT]]);
    const live = new RegExp(`location = ${LIVE_PATH.replace(/\//g, '\\/')} \\{[^}]*proxy_set_header Upgrade \\$http_upgrade;[^}]*proxy_set_header Connection \\$connection_upgrade;[^}]*\\}`);
    expect(nginx).toMatch(live);
    expect(nginx).toMatch(/location = \/metrics \{\s*return 404;/);
  });
});

describe('Kubernetes (deploy/k8s, kustomize)', () => {
  const config = named('ConfigMap', 'amora-config').data as Record<string, string>;
  const secret = named('Secret', 'amora-secrets').stringData as Record<string, string>;

  it('lists files that exist, and every kind a fleet needs', () => {
    for (const file of kustomization.resources as string[]) expect(existsSync(join(ROOT_DIR, 'deploy/k8s', file)), file).toBe(true);
    for (const kind of ['Deployment', 'Job', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'Service', 'Ingress', 'Secret', 'ConfigMap']) {
      expect(ofKind(kind).length, kind).toBeGreaterThan(0);
    }
  });

  it('ConfigMap and Secret name only variables of server/env.ts, with values it accepts', () => {
    checkEnvNames(Object.keys(config), 'ConfigMap');
    checkEnvNames(Object.keys(secret), 'Secret');
    expect(() => loadEnv({ ...config, ...secret })).not.toThrow();
    expect(Number(config.PORT)).toBe(defaults.PORT);
  });

  const pods = [...ofKind('Deployment'), ...ofKind('Job')].map((m) => ({ name: m.metadata.name as string, spec: m.spec.template.spec as Doc, labels: m.spec.template.metadata.labels as Record<string, string> }));

  it('every container runs the image with a command the program understands, configured only by env.ts names', () => {
    const imageName = (kustomization.images as Doc[])[0].name;
    for (const pod of pods) {
      expect(pod.spec.securityContext.runAsNonRoot, pod.name).toBe(true);
      for (const c of pod.spec.containers as Doc[]) {
        expect(c.image, pod.name).toBe(imageName);
        checkCommand(c.command, `${pod.name}`);
        for (const from of c.envFrom as Doc[]) {
          if (from.configMapRef) expect(from.configMapRef.name).toBe('amora-config');
          if (from.secretRef) expect(from.secretRef.name).toBe('amora-secrets');
        }
        if (c.env) checkEnvNames((c.env as Doc[]).map((e) => e.name), pod.name);
        const role = c.env?.find((e: Doc) => e.name === 'AMORA_ROLE')?.value;
        if (role) expect(resolveRole(c.command.slice(2), role), `${pod.name}: --role and AMORA_ROLE agree`).toBe(role);
      }
    }
    expect(named('Job', 'amora-migrate').spec.template.spec.containers[0].command).toEqual(['node', 'build/server/migrate.js']);
  });

  it('probes ask the operations endpoints on the port the server listens on; liveness never depends on the database', async () => {
    const ready = { check: async () => ({ ready: true, checks: {} }), markShuttingDown: () => {} };
    const ops = operationsOnlyApp({ readiness: ready, open: false });
    let probes = 0;
    for (const pod of pods.filter((p) => p.name !== 'amora-migrate')) {
      const c = pod.spec.containers[0] as Doc;
      const ports = new Map((c.ports as Doc[]).map((p) => [p.name, p.containerPort]));
      expect(ports.get('http'), pod.name).toBe(defaults.PORT);
      expect(ports.get('metrics'), pod.name).toBe(Number(config.METRICS_PORT));
      const annotations = ofKind('Deployment').find((d) => d.metadata.name === pod.name)!.spec.template.metadata.annotations;
      expect(Number(annotations['prometheus.io/port'])).toBe(Number(config.METRICS_PORT));
      expect(annotations['prometheus.io/path']).toBe('/metrics');
      for (const kind of ['readinessProbe', 'livenessProbe', 'startupProbe']) {
        const probe = c[kind]?.httpGet;
        if (!probe) continue;
        probes++;
        expect(OPERATIONS_PATHS, `${pod.name} ${kind}`).toContain(probe.path);
        expect(ports.has(probe.port) || probe.port === defaults.PORT, `${pod.name} ${kind} port`).toBe(true);
        expect((await ops.request(probe.path)).status, `${pod.name} ${kind}`).toBe(200);
      }
      expect(c.readinessProbe.httpGet.path, pod.name).toBe('/readyz');
      expect(c.livenessProbe.httpGet.path, pod.name).toBe('/healthz');
      // Requests, and then notifications, each get SHUTDOWN_TIMEOUT_MS before the pod is killed.
      expect(pod.spec.terminationGracePeriodSeconds * 1000, pod.name).toBeGreaterThan(2 * Number(config.SHUTDOWN_TIMEOUT_MS));
    }
    expect(probes).toBeGreaterThanOrEqual(4);
  });

  it('Service, Ingress, HPA and PDB point at the web Deployment, its labels and its port', () => {
    const web = named('Deployment', 'amora-web');
    const labels = web.spec.template.metadata.labels;
    const service = named('Service', 'amora-web');
    expect(service.spec.selector).toEqual(labels);
    const portNames = (web.spec.template.spec.containers[0].ports as Doc[]).map((p) => p.name);
    for (const p of service.spec.ports as Doc[]) expect(portNames).toContain(p.targetPort);
    const ingress = named('Ingress', 'amora');
    const backend = ingress.spec.rules[0].http.paths[0].backend.service;
    expect(backend.name).toBe('amora-web');
    expect((service.spec.ports as Doc[]).map((p) => p.name)).toContain(backend.port.name);
    // A live socket stays open through the ingress far longer than the server's 30 s heartbeat.
    expect(Number(ingress.metadata.annotations['nginx.ingress.kubernetes.io/proxy-read-timeout'])).toBeGreaterThan(60);
    expect(Number(ingress.metadata.annotations['nginx.ingress.kubernetes.io/proxy-send-timeout'])).toBeGreaterThan(60);
    const hpa = named('HorizontalPodAutoscaler', 'amora-web');
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'amora-web' });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(named('PodDisruptionBudget', 'amora-web').spec.selector.matchLabels).toEqual(labels);
    // No second Deployment picks up the web Service's pods.
    expect(named('Deployment', 'amora-worker').spec.template.metadata.labels).not.toEqual(labels);
  });
});

describe('docs/deploy.md', () => {
  it('is linked from the README and names every command the files run', () => {
    const doc = read('docs/deploy.md');
    expect(read('README.md')).toContain('docs/deploy.md');
    for (const phrase of ['npm run db:migrate', 'node build/server/migrate.js', '--role web', '--role worker', 'METRICS_PORT', 'METRICS_TOKEN', '/healthz', '/readyz', 'kubectl apply -k deploy/k8s', 'docker compose up']) {
      expect(doc, phrase).toContain(phrase);
    }
  });
});
