import { spawn, type ChildProcess } from 'node:child_process';

export interface ListeningProcess {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
  /** Resolves once it says it `listens on` its port; rejects if it exits before. */
  ready: Promise<void>;
  exited: Promise<number | null>;
}

/**
 * A server process of the tests' own (from source or from the build), started with only the environment given:
 * nothing of the test runner's configuration leaks in.
 */
export function spawnListening(args: string[], env: Record<string, string>, cwd?: string): ListeningProcess {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('listens on')) resolve();
    });
    child.stderr!.on('data', (chunk: Buffer) => { out += chunk.toString(); });
    child.once('exit', (code) => reject(new Error(`${args.at(-1)} exited with ${code} before listening:\n${out}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, ready, exited };
}
