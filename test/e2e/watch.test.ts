import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { killWatches, startWatch, type WatchProcess } from './watch-process.js';
import { waitFor } from '../wait-for.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'econsig-e2e-watch-'));
});
afterEach(() => {
  killWatches();
  rmSync(home, { recursive: true, force: true });
});

/** `econsig watch` on this test's home (test/e2e/watch-process.ts). */
function watch(args: string[], env: Record<string, string> = {}): WatchProcess {
  return startWatch(args, { ECONSIG_HOME: home, ...env });
}

async function handshake(run: WatchProcess): Promise<string> {
  const first = JSON.parse(await run.nextLine()) as { event: string; url: string };
  expect(first.event).toBe('listening');
  expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhook$/);
  return first.url;
}

async function post(url: string, payload: unknown, headers: Record<string, string> = {}): Promise<number> {
  const res = await request(url, { method: 'POST', body: JSON.stringify(payload), headers: { 'content-type': 'application/json', ...headers } });
  await res.body.dump();
  return res.statusCode;
}

const result = (idContrato: string, status: string) => ({ evento: 'RESULTADO_PROPOSTA', idContrato, idProposta: 'PROP-1001', status, motivo: status === 'APROVADO' ? null : 'Margem insuficiente', dataHora: new Date().toISOString() });

describe('econsig watch (built binary)', () => {
  it('--json: handshake line, a result line per delivery, SIGTERM exits 0 with the count', async () => {
    const run = watch(['--port', '0', '--json']);
    const url = await handshake(run);
    expect(await post(url, result('C-1', 'APROVADO'))).toBe(200);
    const line = JSON.parse(await run.nextLine()) as Record<string, unknown>;
    expect(line).toMatchObject({ event: 'result', idContrato: 'C-1', status: 'APROVADO', outcome: 'approved', verified: null, payload: { evento: 'RESULTADO_PROPOSTA', idContrato: 'C-1' } });
    expect(typeof line.receivedAt).toBe('string');
    const health = await request(url.replace('/webhook', '/healthz'));
    await health.body.dump();
    expect(health.statusCode).toBe(200);
    run.child.kill('SIGTERM');
    // Flaky (130) until cli.ts ignores the SIGTERM that conf's when-exit re-raises: see the commit message.
    expect(await run.exit).toBe(0);
    // --json: stderr is structured logs too, one JSON object per line.
    const logs = run.stderr().trimEnd().split('\n').map((l) => JSON.parse(l) as { level: string; msg: string; event?: string });
    expect(logs[0]).toMatchObject({ level: 'info', event: 'listening', msg: `Listening on ${url}`, auth: 'none' });
    expect(logs.find((l) => l.level === 'warn')?.msg).toContain('signatures are not verified');
    expect(logs.at(-1)).toMatchObject({ level: 'info', event: 'stopped', msg: 'Stopped. 1 delivery received.', received: 1 });
    for (const l of logs) expect(typeof (l as { time?: unknown }).time).toBe('string');
    expect(run.lines).toHaveLength(2);
  });

  it('human mode: one delivery line on stdout with the outcome and reason', async () => {
    const run = watch(['--port', '0']);
    const url = (await waitFor(() => /Listening on (\S+)/.exec(run.stderr())))[1]!;
    await post(url, result('C-H', 'REPROVADO'));
    const line = await run.nextLine();
    expect(line).toMatch(/^\d\d:\d\d:\d\d {2}C-H {2}PROP-1001 {2}denied {2}"Margem insuficiente" {2}unverified$/);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  });

  it('--contract X --timeout 1 exits 9 with no result', async () => {
    const run = watch(['--port', '0', '--contract', 'C-NONE', '--timeout', '1']);
    expect(await run.exit).toBe(9);
    expect(run.stderr()).toContain('No result for contract C-NONE within 1 s');
  });

  it('--json --contract X --timeout 1: the stream ends with a timeout line, exit 9', async () => {
    const run = watch(['--port', '0', '--json', '--contract', 'C-NONE', '--timeout', '1']);
    expect(await run.exit).toBe(9);
    expect(run.lines.map((l) => JSON.parse(l) as { event?: string })).toEqual([
      { event: 'listening', url: expect.stringMatching(/^http:/) },
      { event: 'timeout', idContrato: 'C-NONE' },
    ]);
    expect(run.stderr()).toContain('No result for contract C-NONE within 1 s');
    expect(run.stderr()).toContain('econsig history --contract C-NONE');
  });

  it.each([
    ['APROVADO', 0, 'approved'],
    ['REPROVADO', 8, 'denied'],
    ['CANCELADO', 8, 'cancelled'],
  ])('--contract: a delivered %s exits %i', async (status, code, word) => {
    const run = watch(['--port', '0', '--json', '--contract', 'C-W', '--timeout', '10']);
    const url = await handshake(run);
    await post(url, result('C-OTHER', 'APROVADO'));
    expect(run.child.exitCode).toBe(null);
    await post(url, result('C-W', 'EM_ANALISE'));
    await post(url, result('C-W', status));
    expect(await run.exit).toBe(code);
    expect(run.stderr()).toContain(word);
    expect(run.lines.map((l) => JSON.parse(l).idContrato)).toEqual([undefined, 'C-OTHER', 'C-W', 'C-W']);
  });

  it('--contract sees a result that was stored before it started', async () => {
    const first = watch(['--port', '0', '--json']);
    await post(await handshake(first), result('C-EARLY', 'REPROVADO'));
    await first.nextLine();
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);

    const second = watch(['--port', '0', '--contract', 'C-EARLY', '--timeout', '5']);
    expect(await second.exit).toBe(8);
    expect(second.stderr()).toContain('already in the store');
  });

  it('port in use: exits 2 at once with the reason and a hint', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const run = watch(['--port', String(port)]);
      expect(await run.exit).toBe(2);
      expect(run.stderr()).toContain(`Cannot listen on 127.0.0.1:${port}: the port is already in use (EADDRINUSE)`);
      expect(run.stderr()).toContain('--port 0');
      expect(run.stderr()).not.toContain('Ready!');
    } finally {
      blocker.close();
    }
  });

  it('with ECONSIG_WEBHOOK_SECRET: signed deliveries are verified, unsigned ones get 401 and a warning', async () => {
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const run = watch(['--port', '0', '--json'], { ECONSIG_WEBHOOK_SECRET: secret });
    const url = await handshake(run);
    const body = JSON.stringify(result('C-S', 'APROVADO'));
    const now = new Date();
    const res = await request(url, {
      method: 'POST',
      body,
      headers: { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign('msg_1', now, body) },
    });
    await res.body.dump();
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(await run.nextLine())).toMatchObject({ idContrato: 'C-S', verified: true });
    expect(await post(url, result('C-S', 'APROVADO'))).toBe(401);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    expect(run.stderr()).toContain('rejected a delivery (401)');
    expect(run.stderr()).not.toContain('signatures are not verified');
    expect(run.lines).toHaveLength(2);
  });

  it('--timeout without --contract is a usage error', async () => {
    const run = watch(['--port', '0', '--timeout', '1']);
    expect(await run.exit).toBe(2);
    expect(run.stderr()).toContain('--timeout only applies with --contract');
  });
});

describe('econsig watch: two processes on one home, and hostile bodies (the store)', () => {
  it('two watch processes on one home show each delivery once: the same webhook-id or the same body is a duplicate across them', async () => {
    const a = watch(['--port', '0', '--json']);
    const b = watch(['--port', '0', '--json']);
    const [urlA, urlB] = await Promise.all([handshake(a), handshake(b)]);
    expect(await post(urlA, result('C-TWO-1', 'APROVADO'), { 'webhook-id': 'msg_two_1' })).toBe(200);
    expect(await post(urlB, result('C-TWO-1', 'APROVADO'), { 'webhook-id': 'msg_two_1' })).toBe(200);
    // The same body at the same moment to both: one of them records it.
    const body = result('C-TWO-2', 'REPROVADO');
    expect(await Promise.all([post(urlA, body), post(urlB, body)])).toEqual([200, 200]);
    const results = () =>
      [...a.lines, ...b.lines]
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as { event: string; idContrato?: string })
        .filter((e) => e.event === 'result')
        .map((e) => e.idContrato)
        .sort();
    // Both results shown, then stopped: nothing more may be shown on the way out either.
    await waitFor(() => results().length === 2);
    a.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
    await Promise.all([a.exit, b.exit]);
    expect(results()).toEqual(['C-TWO-1', 'C-TWO-2']);
  });

  it('a JSON body nested 100,000 levels deep is answered 400, and the listener goes on', async () => {
    const run = watch(['--port', '0', '--json']);
    const url = await handshake(run);
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const res = await request(url, { method: 'POST', body: deep, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(await res.body.text()).toContain('nested deeper');
    expect(await post(url, result('C-AFTER', 'APROVADO'))).toBe(200);
    expect(JSON.parse(await run.nextLine())).toMatchObject({ event: 'result', idContrato: 'C-AFTER' });
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  });
});
