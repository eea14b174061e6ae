/**
 * `econsig events` through the built binary (issue 25): sandbox + watch + submit, then the
 * deliveries listed, one shown whole, resent to the watch itself (a duplicate, counted) and
 * to a bare server that verifies with the standardwebhooks library.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { havePostgres, type PgCluster, startPostgres } from './postgres.js';
import { binPath, runCli } from './run-cli.js';
import { bankOnly, cliEnv, startCountedSandbox, startStub, useScratch, writeJson } from './submit-harness.js';
import { killWatches, startWatch } from './watch-process.js';
import { waitFor } from '../wait-for.js';

const whsec = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const scratch = useScratch();
const sandboxes: ChildProcess[] = [];
afterEach(() => {
  killWatches();
  for (const child of sandboxes.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

interface Listed {
  id: number;
  receivedAt: string;
  webhookId: string | null;
  idContrato: string | null;
  idProposta: string | null;
  outcome: string;
  status: string | null;
  reason: string | null;
  verified: boolean | null;
  duplicates: number;
}

/** A receiver's request as it arrived: headers and body. */
interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

describe('econsig events (built binary)', () => {
  it('lists exactly what arrived (--limit says how many more), shows one whole (an unknown id exits 4), resends it signed with its webhook-id (a duplicate to the watch, counted), exit 7 naming a receiver that answers 500', async () => {
    const { home, dir } = scratch;
    const watch = startWatch(['--port', '0', '--json'], { ECONSIG_HOME: home, ECONSIG_WEBHOOK_SECRET: whsec });
    const url = await watch.url();
    const sbx = await startCountedSandbox({ delayMs: 50, webhookUrl: url, secret: whsec });
    const env = { ...cliEnv(home, sbx.sandbox.url, sbx.sandbox.token), ECONSIG_WEBHOOK_SECRET: whsec };
    writeJson(dir, 'PROP-1001.json', bankOnly('PROP-1001'));
    writeJson(dir, 'PROP-1002.json', bankOnly('PROP-1002'));
    expect((await runCli(['submit', dir, '--json'], { env })).code).toBe(0);
    await watch.nextLine();
    await watch.nextLine();

    const listed = await runCli(['events', '--json'], { env });
    expect(listed.code).toBe(0);
    const doc = JSON.parse(listed.stdout) as { ok: boolean; events: Listed[]; more: number };
    expect(doc.ok).toBe(true);
    expect(doc.more).toBe(0);
    expect(doc.events.map((e) => [e.idProposta, e.outcome, e.verified, e.duplicates]).sort()).toEqual([
      ['PROP-1001', 'approved', true, 0],
      ['PROP-1002', 'denied', true, 0],
    ]);
    const denied = doc.events.find((e) => e.outcome === 'denied')!;
    const page = await runCli(['events', '--limit', '1'], { env });
    expect(page.stdout.trim().split('\n')).toHaveLength(1);
    expect(page.stderr).toContain('1 more');
    const missing = await runCli(['events', 'show', 'nope'], { env });
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('nope');
    expect((await runCli(['events', '--outcome', 'maybe'], { env })).code).toBe(2);
    expect(Object.keys(denied)).toEqual(['id', 'receivedAt', 'webhookId', 'idContrato', 'idProposta', 'outcome', 'status', 'reason', 'verified', 'duplicates']);
    expect(denied.webhookId).toMatch(/\S/);

    const shown = JSON.parse((await runCli(['events', 'show', String(denied.id), '--json'], { env })).stdout) as { ok: boolean; event: Listed & { headers: Record<string, string>; body: string } };
    expect(shown.event).toMatchObject({ id: denied.id, webhookId: denied.webhookId, idContrato: denied.idContrato, reason: 'Margem consignável insuficiente' });
    expect(shown.event.headers['webhook-signature']).toBe('[redacted]');
    expect(shown.event.headers['webhook-id']).toBe(denied.webhookId);
    expect(JSON.parse(shown.event.body)).toMatchObject({ idContrato: denied.idContrato, status: expect.any(String) });
    const human = await runCli(['events', 'show', denied.webhookId!], { env });
    expect(human.stdout).toContain(denied.idContrato!);
    expect(human.stdout).toContain('webhook-signature: [redacted]');
    expect(human.stdout).toContain('Margem consignável insuficiente');

    // Resent to the watch itself: verified, answered as a duplicate, counted on the delivery.
    const again = await runCli(['events', 'resend', String(denied.id), '--to', url], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`${denied.webhookId}.*200`));
    const after = JSON.parse((await runCli(['events', '--outcome', 'denied', '--json'], { env })).stdout) as { events: Listed[] };
    expect(after.events.map((e) => e.duplicates)).toEqual([1]);

    // A bare receiver verifying with the standardwebhooks library gets the same body and webhook-id.
    const received: Received[] = [];
    const bodies = await startBodyServer(received);
    const resent = await runCli(['events', 'resend', '--since', '1d', '--to', bodies.url, '--json'], { env });
    expect(resent.code, resent.stderr).toBe(0);
    const result = JSON.parse(resent.stdout) as { ok: boolean; sent: number; results: Array<{ id: number; httpStatus: number; ok: boolean }> };
    expect(result).toMatchObject({ ok: true, sent: 2 });
    expect(received).toHaveLength(2);
    const webhook = new Webhook(whsec);
    for (const r of received) {
      const verified = webhook.verify(r.body, r.headers as Record<string, string>) as { idContrato: string };
      const original = doc.events.find((e) => e.idContrato === verified.idContrato)!;
      expect(r.headers['webhook-id']).toBe(original.webhookId);
    }
    expect(received.find((r) => r.headers['webhook-id'] === denied.webhookId)?.body).toBe(shown.event.body);
    await bodies.close();

    // A receiver that answers 500: exit 7, the delivery named with the status.
    const failing = await startStub((req, res) => res.writeHead(500).end());
    const failed = await runCli(['events', 'resend', String(denied.id), '--to', failing.url], { env });
    expect(failed.code).toBe(7);
    expect(failed.stdout).toMatch(new RegExp(`${denied.webhookId}.*500`));
    expect(failed.stderr).toContain(denied.webhookId!);

    // Plain http to another machine: refused before anything is sent.
    const refused = await runCli(['events', 'resend', String(denied.id), '--to', 'http://192.0.2.1/hook'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect(await watch.stop()).toBe(0);
  }, 30_000);

  it('watch --forward-to: the app gets the original headers and a fresh signature, its status is on the delivery\'s line, and a failed forward is kept for events resend', async () => {
    const { home } = scratch;
    const received: Received[] = [];
    let answer = 500;
    const app = await startBodyServer(received, () => answer);
    const watch = startWatch(['--port', '0', '--forward-to', app.url], { ECONSIG_HOME: home, ECONSIG_WEBHOOK_SECRET: whsec });
    const url = await waitFor(() => /(http:\/\/127\.0\.0\.1:\d+\/webhook)/.exec(watch.stderr())?.[1]);
    const body = JSON.stringify({ evento: 'RESULTADO_PROPOSTA', idContrato: 'C-FWD', idProposta: 'PROP-1001', status: 'REPROVADO', motivo: 'Margem', dataHora: new Date().toISOString() });
    const sentAt = new Date(Date.now() - 30_000);
    const headers = new Webhook(whsec).sign('msg_fwd', sentAt, body);
    const posted = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'webhook-id': 'msg_fwd', 'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)), 'webhook-signature': headers, 'x-trace': 't-1' } });
    expect(posted.status).toBe(200);
    const line = await watch.nextLine();
    expect(line).toMatch(/C-FWD.*→ app 500/);
    expect(received[0]!.headers).toMatchObject({ 'webhook-id': 'msg_fwd', 'x-trace': 't-1' });
    expect(Number(received[0]!.headers['webhook-timestamp'])).toBeGreaterThan(Math.floor(sentAt.getTime() / 1000));
    expect(new Webhook(whsec).verify(received[0]!.body, received[0]!.headers as Record<string, string>)).toMatchObject({ idContrato: 'C-FWD' });
    await waitFor(() => watch.stderr().includes('econsig events resend --contract C-FWD'));
    expect(await watch.stop()).toBe(0);

    const env = { ECONSIG_HOME: home, ECONSIG_WEBHOOK_SECRET: whsec };
    const kept = JSON.parse((await runCli(['events', 'show', 'msg_fwd', '--json'], { env })).stdout) as { event: { forward: { httpStatus: number; url: string } } };
    expect(kept.event.forward).toMatchObject({ httpStatus: 500, url: app.url });
    answer = 200;
    const replayed = await runCli(['events', 'resend', '--contract', 'C-FWD', '--to', app.url], { env });
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(received.at(-1)!.body).toBe(body);
    expect(received.at(-1)!.headers['webhook-id']).toBe('msg_fwd');
    await app.close();
  }, 20_000);
});

/** A receiver that keeps each request's headers and body, and answers `status()` (200). */
async function startBodyServer(into: Received[], status: () => number = () => 200): Promise<{ url: string; close: () => Promise<void> }> {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => (body += c));
    req.on('end', () => {
      // Each request is answered and its connection closed, so close() never waits on one kept alive.
      res.setHeader('connection', 'close');
      into.push({ headers: req.headers, body });
      res.writeHead(status()).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}/hook`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('econsig sandbox trigger (built binary)', () => {
  it('denied --contract C --set motivo=X arrives at watch as denied with reason X; --times 3 is shown once and counted as 2 duplicates; an unknown contract exits 4; a receiver that does not answer exits 7', async () => {
    const { home, dir } = scratch;
    const env = { ECONSIG_HOME: home, ECONSIG_WEBHOOK_SECRET: whsec };
    const watch = startWatch(['--port', '0', '--json'], env);
    const url = await watch.url();
    const sandbox = startSandboxProcess(['--port', '0', '--delay', '0.05', '--json', '--webhook-url', url], env);
    const { baseUrl, token } = await sandbox.listening;
    writeJson(dir, 'PROP-1001.json', bankOnly('PROP-1001'));
    const submitted = await runCli(['submit', join(dir, 'PROP-1001.json'), '--json'], { env: { ...env, ECONSIG_BASE_URL: baseUrl, ECONSIG_TOKEN: token } });
    const contract = (JSON.parse(submitted.stdout) as { results: Array<{ idContrato: string }> }).results[0]!.idContrato;
    expect(JSON.parse(await watch.nextLine())).toMatchObject({ idContrato: contract, outcome: 'approved' });

    // The sandbox announced itself in this home: no --sandbox, no token needed.
    const triggered = await runCli(['sandbox', 'trigger', 'denied', '--contract', contract, '--set', 'motivo=Margem excedida', '--times', '3', '--json'], { env });
    expect(triggered.code, triggered.stderr).toBe(0);
    const answer = JSON.parse(triggered.stdout) as { ok: boolean; webhookId: string; attempts: Array<{ httpStatus: number }> };
    expect(answer.attempts.map((a) => a.httpStatus)).toEqual([200, 200, 200]);
    expect(JSON.parse(await watch.nextLine())).toMatchObject({ idContrato: contract, outcome: 'denied', reason: 'Margem excedida', verified: true, webhookId: answer.webhookId });
    const listed = JSON.parse((await runCli(['events', '--json'], { env })).stdout) as { events: Listed[] };
    expect(listed.events.map((e) => [e.webhookId, e.outcome, e.reason, e.duplicates])).toEqual([
      [answer.webhookId, 'denied', 'Margem excedida', 2],
      [expect.any(String), 'approved', null, 0],
    ]);

    const unknown = await runCli(['sandbox', 'trigger', 'approved', '--contract', 'C-NEVER'], { env });
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toContain('C-NEVER');
    expect(await watch.stop()).toBe(0);

    // The receiver is gone: no answer, exit 7 at once.
    const gone = await runCli(['sandbox', 'trigger', 'cancelled', '--proposal', 'PROP-1003'], { env });
    expect(gone.code).toBe(7);
    sandbox.child.kill('SIGTERM');
    expect(await sandbox.exited).toBe(0);
  }, 30_000);
});

/** `econsig sandbox` from the built binary; its first --json line gives the base URL and token. */
function startSandboxProcess(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [binPath, 'sandbox', ...args], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', CI: '1', NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  sandboxes.push(child);
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const listening = new Promise<{ baseUrl: string; token: string }>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line) as { baseUrl: string; token: string }));
    child.once('close', () => reject(new Error('the sandbox stopped before it listened')));
  });
  return { child, exited, listening };
}

describe('econsig events check (built binary)', () => {
  interface Check {
    ok: boolean;
    rows: Array<{ scenario: string; expected: string; got: string; ok: boolean }>;
  }

  it("against econsig's own watch every row holds (exit 0); against a broken receiver (takes any signature, 500 on a duplicate) those rows fail (exit 1)", async () => {
    const { home } = scratch;
    const env = { ECONSIG_HOME: home, ECONSIG_WEBHOOK_SECRET: whsec };
    const watch = startWatch(['--port', '0', '--json'], env);
    const url = await watch.url();
    const good = await runCli(['events', 'check', '--to', url, '--json'], { env });
    expect(good.code, good.stdout + good.stderr).toBe(0);
    const passed = JSON.parse(good.stdout) as Check;
    expect(passed.ok).toBe(true);
    const names = passed.rows.map((r) => r.scenario).join(' | ');
    for (const word of ['signature', 'stale', 'duplicate', 'retry', 'approved', 'denied', 'cancelled']) expect(names).toContain(word);
    expect(passed.rows.every((r) => r.ok)).toBe(true);
    expect(await watch.stop()).toBe(0);

    const seen = new Set<string>();
    const broken = await startStub((req, res) => {
      const id = String(req.headers['webhook-id']);
      res.writeHead(seen.has(id) ? 500 : 200).end();
      seen.add(id);
    });
    const bad = await runCli(['events', 'check', '--to', broken.url], { env });
    expect(bad.code).toBe(1);
    const failedRows = bad.stdout.split('\n').filter((line) => line.startsWith('✗'));
    expect(failedRows.some((l) => l.includes('bad signature') && l.includes('got: 200'))).toBe(true);
    expect(failedRows.some((l) => l.includes('stale'))).toBe(true);
    expect(failedRows.some((l) => l.includes('duplicate') && l.includes('200, 500'))).toBe(true);
    expect(bad.stdout.split('\n').filter((line) => line.startsWith('✓')).some((l) => l.includes('approved: a signed result'))).toBe(true);
    expect(bad.stderr).toContain('failed');
  }, 20_000);
});

describe.skipIf(!havePostgres())('events on the team store (PostgreSQL)', () => {
  let pg: PgCluster;
  beforeAll(async () => {
    pg = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await pg?.stop();
  });

  it('trigger --times 3 to a team watch: events lists it once with 2 duplicates, shows it whole, resends it verified; events check passes against that watch', async () => {
    const { home } = scratch;
    const env = { ECONSIG_HOME: home, ECONSIG_WEBHOOK_SECRET: whsec, ECONSIG_DATABASE_URL: await pg.createDatabase('events_team') };
    const watch = startWatch(['--port', '0', '--json'], env);
    const url = await watch.url();
    const sandbox = startSandboxProcess(['--port', '0', '--delay', '60', '--json', '--webhook-url', url], env);
    await sandbox.listening;
    const triggered = await runCli(['sandbox', 'trigger', 'denied', '--proposal', 'PROP-1002', '--set', 'motivo=Equipe', '--times', '3', '--json'], { env });
    expect(triggered.code, triggered.stderr).toBe(0);
    const { webhookId } = JSON.parse(triggered.stdout) as { webhookId: string };
    expect(JSON.parse(await watch.nextLine())).toMatchObject({ outcome: 'denied', reason: 'Equipe', webhookId });

    const listed = JSON.parse((await runCli(['events', '--json'], { env })).stdout) as { events: Listed[]; more: number };
    expect(listed.events.map((e) => [e.webhookId, e.outcome, e.reason, e.verified, e.duplicates])).toEqual([[webhookId, 'denied', 'Equipe', true, 2]]);
    const shown = JSON.parse((await runCli(['events', 'show', String(listed.events[0]!.id), '--json'], { env })).stdout) as { event: { body: string; headers: Record<string, string> } };
    expect(JSON.parse(shown.event.body)).toMatchObject({ motivo: 'Equipe', status: 'REPROVADO' });
    expect(shown.event.headers['webhook-signature']).toBe('[redacted]');

    const received: Received[] = [];
    const bodies = await startBodyServer(received);
    const resent = await runCli(['events', 'resend', webhookId, '--to', bodies.url], { env });
    expect(resent.code, resent.stderr).toBe(0);
    expect(new Webhook(whsec).verify(received[0]!.body, received[0]!.headers as Record<string, string>)).toMatchObject({ motivo: 'Equipe' });
    expect(received[0]!.headers['webhook-id']).toBe(webhookId);
    await bodies.close();

    const checked = await runCli(['events', 'check', '--to', url, '--json'], { env });
    expect(checked.code, checked.stdout).toBe(0);
    sandbox.child.kill('SIGTERM');
    expect(await watch.stop()).toBe(0);
  }, 30_000);
});
