/**
 * Runs the built binary as an operator (or a CI job) would: a real process, real files,
 * CI=1 and NO_COLOR=1, a temporary ECONSIG_HOME. Needs `npm run build` first (npm test does it).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const binPath = join(repoRoot, 'bin', 'econsig.js');
/** How econsig is run: the npm install's entry on this Node, or (test/exe/) a single executable. */
export const npmProgram: readonly string[] = [process.execPath, binPath];

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string | Buffer;
  cwd?: string;
  timeoutMs?: number;
  /** The program and its first arguments; default npmProgram. */
  program?: readonly string[];
}

/** A fresh ECONSIG_HOME; remove it with the returned function. */
export function tempHome(): { home: string; cleanup: () => void } {
  const home = mkdtempSync(join(tmpdir(), 'econsig-e2e-'));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

export function runCli(args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const env: Record<string, string | undefined> = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      CI: '1',
      NO_COLOR: '1',
      ...options.env,
    };
    for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
    const [command, ...first] = options.program ?? npmProgram;
    const child = spawn(command as string, [...first, ...args], {
      cwd: options.cwd ?? repoRoot,
      env: env as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 15_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
    // A run that never reads stdin can exit before the input is written: that EPIPE is no
    // failure of the run (its exit code and output are what the test checks).
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}
