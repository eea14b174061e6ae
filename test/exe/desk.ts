/**
 * A desk without Node for the single executables (dist/exe, `npm run build:exe`): a fresh
 * folder holding the executable as `econsig`, a PATH of that folder alone (no `node` on it),
 * no node_modules in it or above it, and an ECONSIG_HOME inside.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { repoRoot } from '../e2e/run-cli.js';

export const exeDir = join(repoRoot, 'dist', 'exe');

export interface Desk {
  dir: string;
  home: string;
  /** The executable as a program for runCli, startWatch and runInTerminal. */
  program: readonly string[];
  /** What a person at this desk has: PATH (this folder), HOME, ECONSIG_HOME, CI, NO_COLOR; plus `extra`. */
  env(extra?: Record<string, string | undefined>): Record<string, string | undefined>;
  cleanup(): void;
}

/** A desk with the executable `file` of dist/exe. Throws when the build has not made it. */
export function makeDesk(file: string): Desk {
  const built = join(exeDir, file);
  if (!existsSync(built)) throw new Error(`${built} is missing: run npm run build:exe (npm run test:exe does)`);
  const dir = mkdtempSync(join(tmpdir(), 'econsig-desk-'));
  const bin = join(dir, 'bin');
  const home = join(dir, 'home');
  mkdirSync(bin);
  mkdirSync(home, { mode: 0o700 });
  const exe = join(bin, file.endsWith('.exe') ? 'econsig.exe' : 'econsig');
  // A copy, not a link: a link's target is where Node says the executable is (process.execPath).
  copyFileSync(built, exe);
  return {
    dir,
    home,
    program: [exe],
    env: (extra = {}) => ({ PATH: bin, HOME: dir, ECONSIG_HOME: home, CI: '1', NO_COLOR: '1', ...extra }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The folders from `dir` up to the root that hold a node_modules. */
export function nodeModulesAbove(dir: string): string[] {
  const found: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'node_modules'))) found.push(at);
    if (dirname(at) === at) return found;
  }
}

export interface SandboxProcess {
  baseUrl: string;
  token: string;
  /** The sandbox's --json log lines so far (one per request and webhook attempt). */
  log: string[];
  stop(): Promise<void>;
}

/** `econsig sandbox --port 0 --json ...args` run by `program`, once it says where it listens. */
export async function startSandboxProcess(program: readonly string[], args: string[], env: Record<string, string | undefined>): Promise<SandboxProcess> {
  const [command, ...first] = program;
  const child: ChildProcess = spawn(command as string, [...first, 'sandbox', '--port', '0', '--json', ...args], { env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const log: string[] = [];
  const lines = createInterface({ input: child.stdout! });
  const listening = await new Promise<{ baseUrl: string; token: string }>((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line) as { baseUrl: string; token: string }));
    child.once('exit', (code) => reject(new Error(`the sandbox exited ${code}: ${stderr}`)));
  });
  lines.on('line', (line) => log.push(line));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return {
    ...listening,
    log,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
