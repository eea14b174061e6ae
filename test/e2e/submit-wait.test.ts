/**
 * `submit --wait` through the built binary: the sandbox sends its result webhook to the
 * listener the binary opens with --listen on a port picked here (docs/cli-contract.md "submit
 * options"): approved exits 0, denied 8 with the reason, no result in time 9.
 */
import { spawn } from 'node:child_process';
import { beforeEach, describe, expect, it } from 'vitest';
import { binPath, repoRoot, runCli } from './run-cli.js';
import { type CountedSandbox, cliEnv, freePort, parseSubmitJson, startCountedSandbox, useScratch } from './submit-harness.js';

let home: string;
let sbx: CountedSandbox | undefined;
const scratch = useScratch(); // temp home and folder; every sandbox and stub closed after each test
beforeEach(() => {
  ({ home } = scratch);
  sbx = undefined;
});

/** A sandbox whose webhooks go to a free port, and the --listen value for that port. */
async function sandboxWithListener(delayMs: number): Promise<{ listen: string; env: Record<string, string | undefined> }> {
  const port = await freePort();
  sbx = await startCountedSandbox({ delayMs, webhookUrl: `http://127.0.0.1:${port}/webhook` });
  return { listen: `127.0.0.1:${port}`, env: cliEnv(home, sbx.sandbox.url, sbx.sandbox.token) };
}

describe('submit --wait', () => {
  it('approved: exit 0, result.outcome approved', async () => {
    const { listen, env } = await sandboxWithListener(300);
    const run = await runCli(['submit', 'fixtures/valid/bank-and-pix.json', '--wait', '--listen', listen, '--timeout', '10', '--json'], { env });
    expect(run.code, run.stderr).toBe(0);
    const r = parseSubmitJson(run.stdout).results[0]!;
    expect(r.outcome).toBe('approved');
    expect(r.httpStatus).toBe(202);
    expect(r.result).toMatchObject({ outcome: 'approved', status: 'APROVADO' });
    expect(r.idContrato).toBe(sbx!.sandbox.contracts()[0]!.idContrato);
    expect(run.stderr).toContain(listen);
  });

  it('denied (PROP-1002): exit 8 with the reason in the JSON result and on stderr', async () => {
    const { listen, env } = await sandboxWithListener(300);
    const json = await runCli(['submit', 'fixtures/valid/bank-only.json', '--wait', '--listen', listen, '--timeout', '10', '--json'], { env });
    expect(json.code, json.stderr).toBe(8);
    const r = parseSubmitJson(json.stdout).results[0]!;
    expect(r.outcome).toBe('denied');
    expect(r.result).toMatchObject({ outcome: 'denied', status: 'REPROVADO', reason: 'Margem consignável insuficiente' });

    // Human output: the same proposal again (its previous contract has a result, so it is free).
    const human = await runCli(['submit', 'fixtures/valid/bank-only.json', '--wait', '--listen', listen, '--timeout', '10'], { env });
    expect(human.code, human.stderr).toBe(8);
    expect(human.stderr).toContain('Margem consignável insuficiente');
    expect(human.stderr).toMatch(/denied/);
  });

  it('no result within --timeout 1 (sandbox delay 10 s): exit 9, outcome timeout', async () => {
    const { listen, env } = await sandboxWithListener(10_000);
    const started = Date.now();
    const run = await runCli(['submit', 'fixtures/valid/bank-and-pix.json', '--wait', '--listen', listen, '--timeout', '1', '--json'], { env });
    expect(run.code, run.stderr).toBe(9);
    expect(Date.now() - started).toBeLessThan(8_000);
    const r = parseSubmitJson(run.stdout).results[0]!;
    expect(r.outcome).toBe('timeout');
    expect(r.result).toBeNull();
    expect(r.idContrato).toBe(sbx!.sandbox.contracts()[0]!.idContrato);
  });
});

describe('submit --wait beside a running econsig watch', () => {
  it('the port is taken by watch: --wait follows its store instead of failing, and gets the result', async () => {
    const { listen, env } = await sandboxWithListener(300);
    const port = listen.split(':')[1] as string;
    const watch = spawn(process.execPath, [binPath, 'watch', '--port', port, '--json'], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH, CI: '1', NO_COLOR: '1', ...env } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const watchExited = new Promise<number | null>((resolve) => watch.on('close', (code) => resolve(code)));
    try {
      // Wait for the handshake line: the watcher holds the port from here on.
      await new Promise<void>((resolve, reject) => {
        watch.stdout.setEncoding('utf8').once('data', () => resolve());
        watch.once('error', reject);
      });
      const run = await runCli(['submit', 'fixtures/valid/pix-only.json', '--wait', '--listen', listen, '--timeout', '10', '--json'], { env });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('following the store of `econsig watch`');
      expect(parseSubmitJson(run.stdout).results[0]?.result).toMatchObject({ outcome: 'approved', source: 'store' });
    } finally {
      watch.kill('SIGTERM');
      expect(await watchExited).toBe(0);
    }
  });
});
