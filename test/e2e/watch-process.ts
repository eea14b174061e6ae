/**
 * A running `econsig watch` (the built binary) for end-to-end tests: its stdout lines, its
 * stderr, its exit, and the URL it announced. Used by the receiver and team-store tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { npmProgram } from './run-cli.js';

export interface WatchProcess {
  child: ChildProcess;
  lines: string[];
  stderr: () => string;
  exit: Promise<number | null>;
  nextLine: () => Promise<string>;
  /** The webhook URL from the first --json line (`{"event":"listening","url"}`). */
  url: () => Promise<string>;
  /** SIGTERM, then the exit code (SIGKILL after 10 s). */
  stop: () => Promise<number | null>;
}

const running = new Set<ChildProcess>();

/** Kills every watch still running (afterEach). */
export function killWatches(): void {
  for (const c of running) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  running.clear();
}

export function startWatch(args: string[], env: Record<string, string | undefined>, program: readonly string[] = npmProgram): WatchProcess {
  const fullEnv: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', CI: '1', NO_COLOR: '1' };
  for (const [k, v] of Object.entries(env)) if (v !== undefined) fullEnv[k] = v;
  const [command, ...first] = program;
  const child = spawn(command as string, [...first, 'watch', ...args], { env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const lines: string[] = [];
  let buffered = '';
  let err = '';
  const waiters: Array<() => void> = [];
  let read = 0;
  child.stdout!.on('data', (d: Buffer) => {
    buffered += d.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    lines.push(...parts);
    for (const w of waiters.splice(0)) w();
  });
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  // 'close', not 'exit': the process's output is read to its end before anyone looks at it.
  const exit = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const nextLine = async (): Promise<string> => {
    const deadline = Date.now() + 10_000;
    while (lines.length <= read) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no stdout line; stderr: ${err}`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 50);
      });
    }
    return lines[read++]!;
  };
  let announced: Promise<string> | undefined;
  const url = (): Promise<string> =>
    (announced ??= nextLine().then((line) => {
      const first = JSON.parse(line) as { event?: string; url?: string };
      if (first.event !== 'listening' || typeof first.url !== 'string') throw new Error(`not a listening line: ${line}`);
      return first.url;
    }));
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    try {
      return await exit;
    } finally {
      clearTimeout(timer);
    }
  };
  return { child, lines, stderr: () => err, exit, nextLine, url, stop };
}
