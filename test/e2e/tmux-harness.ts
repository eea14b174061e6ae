/**
 * The built binary in a real pseudo-terminal (tmux, its own server socket so no session of
 * the person running the tests is touched): keys typed one by one, Ctrl-C as a key, the
 * screen read back. Needs `npm run build` and tmux (.ci/run installs it).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { npmProgram, repoRoot } from './run-cli.js';

export const hasTmux = spawnSync('tmux', ['-V']).status === 0;
// On a developer's machine without tmux these tests are skipped; CI installs tmux, so there
// a missing tmux fails the run instead of passing it with the terminal untested.
export const skipTerminal = !hasTmux && !process.env.CI;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Terminal {
  pane(history?: boolean): string;
  /** Wait until `text` is on the screen; returns the screen. */
  waitFor(text: string | RegExp, ms?: number): Promise<string>;
  type(text: string): void;
  keys(...keys: string[]): void;
  /** Wait for the prompt (its "?" line shows only while it is active), type, press Enter. */
  answer(prompt: string, text: string): Promise<void>;
  /** The process in the pane, e.g. to send it SIGTERM. */
  pid(): number;
  kill(): void;
}

let sessions = 0;

export function startTmux(command: string, size: { cols: number; rows: number } = { cols: 120, rows: 40 }): Terminal {
  // Random, not the pid and the time alone: sessions in other PID namespaces share /tmp/tmux-<uid>
  // and one run once read another's pane.
  const socket = `econsig-test-${process.pid}-${randomBytes(6).toString('hex')}-${sessions++}`;
  const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  tmux('new-session', '-d', '-s', 'term', '-x', String(size.cols), '-y', String(size.rows), command);
  const pane = (history = false): string =>
    history ? tmux('capture-pane', '-p', '-t', 'term', '-S', '-', '-E', '-') : tmux('capture-pane', '-p', '-t', 'term');
  const waitFor = async (text: string | RegExp, ms = 10_000): Promise<string> => {
    const end = Date.now() + ms;
    for (;;) {
      const screen = pane();
      if (typeof text === 'string' ? screen.includes(text) : text.test(screen)) return screen;
      if (Date.now() > end) throw new Error(`no ${String(text)} on the terminal after ${ms} ms; it shows:\n${screen}`);
      await sleep(40);
    }
  };
  return {
    pane,
    waitFor,
    type: (text) => void tmux('send-keys', '-t', 'term', '-l', text),
    keys: (...keys) => void tmux('send-keys', '-t', 'term', ...keys),
    answer: async (prompt, text) => {
      await waitFor(`? ${prompt}`);
      if (text) tmux('send-keys', '-t', 'term', '-l', text);
      tmux('send-keys', '-t', 'term', 'Enter');
    },
    pid: () => {
      // The pane runs `sh run.sh`; econsig is its child.
      const shell = tmux('display', '-p', '-t', 'term', '#{pane_pid}').trim();
      const child = execFileSync('pgrep', ['-P', shell], { encoding: 'utf8' }).trim().split('\n')[0];
      return Number(child);
    },
    kill: () => {
      try {
        tmux('kill-server');
      } catch {
        // Already gone.
      }
    },
  };
}

export interface TerminalRun {
  term: Terminal;
  exitFile: string;
  /** Wait until the command has ended (or `ms` passed). */
  waitExit(ms: number): Promise<void>;
  /** The exit code, once ended. */
  exitCode(): string | undefined;
}

/**
 * `econsig <args>` (a shell fragment) in a tmux pane, from the repository, with a clean
 * environment: env -i, so the pane does not inherit CI from the test run (the wizard would
 * refuse to start). `env` is added to PATH, HOME, TERM, LANG (en_US.UTF-8), NO_COLOR and
 * ECONSIG_HOME; an undefined value leaves that variable out. `where`: another program (a single
 * executable) and folder to run it in.
 */
export function runInTerminal(
  home: string,
  env: Record<string, string | undefined>,
  args: string,
  size?: { cols: number; rows: number },
  where: { program?: readonly string[]; cwd?: string } = {},
): TerminalRun & { cleanup(): void } {
  const exitFile = join(home, 'exit-code');
  const script = join(home, 'run.sh');
  const all: Record<string, string | undefined> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    TERM: 'xterm-256color',
    LANG: 'en_US.UTF-8',
    NO_COLOR: '1',
    ECONSIG_HOME: home,
    ...env,
  };
  const assignments = Object.entries(all)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${name}='${value.replace(/'/g, `'\\''`)}'`);
  // Once econsig has ended, a Ctrl-C still being pressed (the second-Ctrl-C test presses
  // until it sees the exit code) must not end the shell and with it the tmux session.
  const program = (where.program ?? npmProgram).map((word) => `'${word}'`).join(' ');
  writeFileSync(script, `cd '${where.cwd ?? repoRoot}'\nenv -i ${assignments.join(' ')} ${program} ${args}\ncode=$?\ntrap '' INT\necho $code > '${exitFile}.tmp'\nmv '${exitFile}.tmp' '${exitFile}'\nsleep 600\n`);
  rmSync(exitFile, { force: true });
  const term = startTmux(`sh '${script}'`, size);
  const waitExit = async (ms: number): Promise<void> => {
    const end = Date.now() + ms;
    while (!existsSync(exitFile) && Date.now() < end) await sleep(50);
  };
  const exitCode = (): string | undefined => (existsSync(exitFile) ? readFileSync(exitFile, 'utf8').trim() : undefined);
  return { term, exitFile, waitExit, exitCode, cleanup: () => term.kill() };
}
