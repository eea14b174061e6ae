/**
 * Ctrl-C and SIGTERM where people meet them: the built binary in a real 80x24 terminal
 * (tmux), where the spinner and the prompts put the terminal in raw mode and Ctrl-C is a
 * key, not a signal (issue 14, point 1). Exit 130; the same command again sends only the rest.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type * as SandboxModule from '../../src/sandbox/server.js';
import { repoRoot, runCli, tempHome } from './run-cli.js';
import { bankOnly, freePort, startStub, writeJson } from './submit-harness.js';
import { runInTerminal, skipTerminal } from './tmux-harness.js';
import { waitFor } from '../wait-for.js';

const SIZE = { cols: 80, rows: 24 };
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandboxWith(options: Parameters<typeof SandboxModule.startSandbox>[0]) {
  const { startSandbox } = (await import(join(repoRoot, 'dist', 'sandbox', 'server.js'))) as typeof SandboxModule;
  let posts = 0;
  const sandbox = await startSandbox({
    port: 0,
    ...options,
    onLog: (entry) => {
      if (entry.event === 'request') posts += 1;
    },
  });
  cleanups.push(() => sandbox.close());
  return { sandbox, posts: () => posts };
}

function scratch(files: number): { home: string; folder: string } {
  const { home, cleanup } = tempHome();
  cleanups.push(cleanup);
  const folder = join(home, 'batch');
  mkdirSync(folder);
  for (let i = 0; i < files; i++) writeJson(folder, `PROP-${2001 + i}.json`, bankOnly(`PROP-${2001 + i}`));
  return { home, folder };
}

function terminal(home: string, env: Record<string, string | undefined>, args: string) {
  const run = runInTerminal(home, env, args, SIZE);
  cleanups.push(run.cleanup);
  return run;
}

describe.skipIf(skipTerminal)('Ctrl-C and SIGTERM on a terminal (built binary, tmux 80x24)', () => {
  it('Ctrl-C during the spinner of a batch: nothing more is sent, exit 130; the same command again sends only the rest', async () => {
    const { sandbox, posts } = await sandboxWith({ delayMs: 60_000, latencyMs: 150 });
    const { home, folder } = scratch(40);
    const env = { ECONSIG_TOKEN: sandbox.token, ECONSIG_BASE_URL: sandbox.url };
    const first = terminal(home, env, `submit '${folder}' --concurrency 2`);
    await first.term.waitFor(/\b([4-9]|\d\d)\/40 answered/);
    first.term.keys('C-c');
    await first.waitExit(10_000);
    const screen = first.term.pane(true);
    expect(first.exitCode(), screen).toBe('130');
    expect(screen).toContain('Interrupted: nothing more is sent');
    expect(screen).toMatch(/40 submissions: \d+ accepted, \d+ skipped \(interrupted\)/);
    const sentBefore = sandbox.contracts().length;
    expect(sentBefore).toBeGreaterThanOrEqual(4);
    // At 80 columns lines break between words: every contract id on the screen is whole.
    const ids = screen.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g) ?? [];
    expect(new Set(ids)).toEqual(new Set(sandbox.contracts().map((c) => c.idContrato)));
    for (const line of screen.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(sentBefore).toBeLessThan(40);
    // Nothing was left in flight at the exit: each submission the run recorded has its answer.
    // (One sent but not awaited would also show below as a 41st contract or a held proposal.)
    const unanswered = await runCli(['history', '--outcome', 'unknown', '--json'], { env: { ECONSIG_HOME: home } });
    expect(unanswered.code, unanswered.stderr).toBe(0);
    expect((JSON.parse(unanswered.stdout) as { entries: unknown[] }).entries).toEqual([]);
    first.cleanup();

    const postsBefore = posts();
    const again = terminal(home, env, `submit '${folder}' --concurrency 4`);
    await again.waitExit(20_000);
    expect(again.exitCode(), again.term.pane(true)).toBe('0');
    expect(sandbox.contracts()).toHaveLength(40);
    expect(posts() - postsBefore).toBe(40 - sentBefore);
  }, 60_000);

  it('a second Ctrl-C leaves at once, without waiting for the answers in flight', async () => {
    // A service that takes each request and never answers: only a second Ctrl-C can end the run.
    const service = await startStub(() => undefined);
    cleanups.push(() => service.close());
    const { home, folder } = scratch(6);
    const run = terminal(home, { ECONSIG_TOKEN: 'sbx_stub_token_0123456789', ECONSIG_BASE_URL: service.url }, `submit '${folder}' --concurrency 2`);
    await run.term.waitFor('0/6 answered');
    await waitFor(() => service.requests() === 2); // the two POSTs have arrived
    run.term.keys('C-c');
    await run.term.waitFor('leaves at once');
    // A person's second press. One within the echo window (src/signals.ts) is taken for the
    // first one's echo and ignored: pressed again until the run ends.
    for (let press = 0; run.exitCode() === undefined && press < 50; press++) {
      run.term.keys('C-c');
      await run.waitExit(100);
    }
    expect(run.exitCode(), run.term.pane(true)).toBe('130');
    expect(service.requests()).toBe(2);
  }, 30_000);

  it('Ctrl-C while --wait waits for the result: exit 130; again, the contract is not sent twice', async () => {
    const port = await freePort();
    const { sandbox, posts } = await sandboxWith({ delayMs: 60_000, webhookUrl: `http://127.0.0.1:${port}/webhook` });
    const { home, folder } = scratch(1);
    const env = { ECONSIG_TOKEN: sandbox.token, ECONSIG_BASE_URL: sandbox.url };
    const file = join(folder, 'PROP-2001.json');
    const first = terminal(home, env, `submit '${file}' --wait --listen 127.0.0.1:${port}`);
    await first.term.waitFor('waiting for the approval result');
    first.term.keys('C-c');
    await first.waitExit(10_000);
    const screen = first.term.pane(true);
    expect(first.exitCode(), screen).toBe('130');
    expect(screen).toMatch(/accepted\s+202 accepted/);
    expect(posts()).toBe(1);
    first.cleanup();

    const again = terminal(home, env, `submit '${file}' --wait --listen 127.0.0.1:${port} --timeout 1`);
    await again.waitExit(15_000);
    expect(again.exitCode(), again.term.pane(true)).toBe('9'); // no result yet, as the sandbox holds it 60 s
    expect(again.term.pane(true)).toContain('not sent again');
    expect(posts()).toBe(1);
  }, 40_000);

  it('SIGTERM to the wizard at a prompt: the draft is saved (0600) and named, exit 130', async () => {
    const { home, cleanup } = tempHome();
    cleanups.push(cleanup);
    const run = terminal(home, { ECONSIG_TOKEN: 'sbx_unused_token', ECONSIG_BASE_URL: 'http://127.0.0.1:9' }, 'submit');
    await run.term.answer('Proposal id', 'PROP-1001');
    await run.term.waitFor('? City of birth');
    process.kill(run.term.pid(), 'SIGTERM');
    await run.waitExit(5_000);
    const screen = run.term.pane(true);
    expect(run.exitCode(), screen).toBe('130');
    const drafts = join(home, 'drafts');
    const [name] = existsSync(drafts) ? readdirSync(drafts) : [];
    expect(name, screen).toBeDefined();
    const path = join(drafts, name as string);
    expect(screen.replace(/\n\s*/g, '')).toContain(path);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ idProposta: 'PROP-1001' });
  }, 30_000);

  it('Ctrl-C in the wizard: the draft is saved and named, exit 130', async () => {
    const { home, cleanup } = tempHome();
    cleanups.push(cleanup);
    const run = terminal(home, { ECONSIG_TOKEN: 'sbx_unused_token', ECONSIG_BASE_URL: 'http://127.0.0.1:9' }, 'submit');
    await run.term.answer('Proposal id', 'PROP-1001');
    await run.term.answer('City of birth', 'São Paulo');
    await run.term.waitFor('? E-mail');
    run.term.keys('C-c');
    await run.waitExit(5_000);
    const screen = run.term.pane(true);
    expect(run.exitCode(), screen).toBe('130');
    expect(screen).toContain('What was entered is saved in');
    const [name] = readdirSync(join(home, 'drafts'));
    expect(JSON.parse(readFileSync(join(home, 'drafts', name as string), 'utf8'))).toEqual({ idProposta: 'PROP-1001', pessoa: { naturalidade: 'São Paulo' } });
  }, 30_000);
});
