// Shared helpers for the benches: run a command, time it, read its peak memory.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const bin = join(root, 'bin', 'econsig.js');
const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

/** Run `node ...args` once; wall time in ms and, when GNU time exists, peak RSS in MiB. */
export function runNode(args, options = {}) {
  return runProgram(process.execPath, args, options);
}

/**
 * Run `program ...args` once, as runNode does. `stderr: 'ignore'` for a run whose people's
 * text is too long to keep (a million lines): GNU time then writes its figure to a file.
 */
export function runProgram(program, args, { env = {}, input, stdout = 'ignore', stderr: err = 'pipe' } = {}) {
  const fullEnv = { ...process.env, CI: '1', NO_COLOR: '1', ...env };
  const cmd = gnuTime ?? program;
  const figure = err === 'ignore' ? join(mkdtempSync(join(tmpdir(), 'econsig-bench-time-')), 'rss') : null;
  const cmdArgs = gnuTime ? ['-f', '%M', ...(figure ? ['-o', figure] : []), program, ...args] : args;
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, cmdArgs, { env: fullEnv, input, stdio: ['pipe', stdout, err], maxBuffer: 1 << 28 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const stderr = r.stderr?.toString() ?? '';
  const timed = figure ? (existsSync(figure) ? readFileSync(figure, 'utf8') : '') : stderr;
  if (figure) rmSync(dirname(figure), { recursive: true, force: true });
  const kb = gnuTime ? Number(timed.trim().split('\n').pop()) : NaN;
  return { ms, rssMiB: kb / 1024, status: r.status, stderr, stdout: r.stdout?.toString() };
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function range(values) {
  return `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
}

/**
 * One row of a size bench (the same command against a big and an empty store, pair by pair):
 * its medians and ranges, the median of the pairs' ratios, the ratio of the best runs (on a
 * shared machine the least disturbed figure), and whether the median ratio meets `goal`.
 */
export function pairRow(name, p, goal = 1.2) {
  const best = Math.min(...p.big) / Math.min(...p.empty);
  return [name, median(p.empty).toFixed(0), range(p.empty), median(p.big).toFixed(0), range(p.big), median(p.ratios).toFixed(2), best.toFixed(2), median(p.ratios) <= goal ? 'met' : 'NOT met'];
}

export const PAIR_HEADER = (big) => ['command', 'empty ms', '(min–max)', `${big} ms`, '(min–max)', 'ratio (median of pairs)', 'ratio of best runs', 'goal <= 1.2x'];

export function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => r.map((c, i) => String(c).padEnd(widths[i])).join('  ')).join('\n');
}

/**
 * `econsig sandbox --port 0 --json ...args` in its own process: its base URL and token (the
 * first stdout line), and stop(). Its log is drained.
 */
export async function startSandboxProcess(args) {
  const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--json', ...args], {
    env: { ...process.env, CI: '1', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
  });
  lines.on('line', () => undefined);
  const { baseUrl, token } = JSON.parse(first);
  return { baseUrl, token, stop: () => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))) };
}
