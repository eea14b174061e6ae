/**
 * The team store end to end (issue 15): the built binary, a real PostgreSQL (a throwaway
 * cluster, test/e2e/postgres.ts) and the sandbox. Two machines are two ECONSIG_HOMEs
 * sharing one ECONSIG_DATABASE_URL. The receiver is `econsig watch` in home A; desks and
 * CI are other homes whose `submit --wait` binds no port.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signWebhook } from '../../src/webhook/verify.js';
import { havePostgres, type PgCluster, startPostgres } from './postgres.js';
import { repoRoot, runCli, type RunResult } from './run-cli.js';
import { cliEnv, parseSubmitJson, startCountedSandbox, useScratch } from './submit-harness.js';
import { killWatches, startWatch, type WatchProcess } from './watch-process.js';

let pg: PgCluster;
let db: string;
let n = 0;
const homes: string[] = [];
/** Every stdout and stderr of this file, searched for the password at the end. */
const seenOutput: string[] = [];
const scratch = useScratch();

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'econsig-e2e-team-'));
  homes.push(dir);
  return dir;
}

async function cli(args: string[], env: Record<string, string | undefined>, timeoutMs = 30_000): Promise<RunResult> {
  const r = await runCli(args, { env: { ECONSIG_DATABASE_URL: db, ...env }, timeoutMs });
  seenOutput.push(r.stdout, r.stderr);
  return r;
}

function receiver(args: string[], env: Record<string, string | undefined> = {}): WatchProcess {
  return startWatch(['--port', '0', '--json', ...args], { ECONSIG_HOME: home(), ECONSIG_DATABASE_URL: db, ...env });
}

async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers }, headersTimeout: 20_000 });
  await res.body.dump();
  return res.statusCode;
}

async function get(url: string): Promise<{ status: number; text: string }> {
  const res = await request(url, { headersTimeout: 10_000 });
  return { status: res.statusCode, text: await res.body.text() };
}

const result = (idContrato: string, status = 'APROVADO') =>
  JSON.stringify({ evento: 'RESULTADO_PROPOSTA', idContrato, idProposta: 'PROP-1001', status, motivo: status === 'APROVADO' ? null : 'Margem', dataHora: '2026-11-24T08:00:00.000Z' });

const count = async (table: string): Promise<number> => Number((await pg.psql(`SELECT count(*) FROM ${table}`, `team_${n}`)).trim());

describe.skipIf(!havePostgres())('team store (PostgreSQL) through the built binary', () => {
  beforeAll(async () => {
    pg = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await pg?.stop();
    for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    db = await pg.createDatabase(`team_${++n}`);
  });
  afterEach(async () => {
    for (const w of [...watches]) seenOutput.push(w.lines.join('\n'), w.stderr());
    watches.length = 0;
    killWatches();
  });
  const watches: WatchProcess[] = [];
  const track = (w: WatchProcess): WatchProcess => (watches.push(w), w);

  it('receiver in home A; submit --wait in home B binds no port and gets approved (0) and denied (8) from the store', async () => {
    const a = track(receiver([]));
    const sbx = await startCountedSandbox({ delayMs: 300, webhookUrl: await a.url() });
    const b = home();
    const env = cliEnv(b, sbx.sandbox.url, sbx.sandbox.token);
    const approved = await cli(['submit', 'fixtures/valid/bank-and-pix.json', '--wait', '--timeout', '15', '--json'], env);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stderr).toContain(`results from the team store postgres://econsig@127.0.0.1:${pg.port}/team_${n}`);
    expect(parseSubmitJson(approved.stdout).results[0]).toMatchObject({ outcome: 'approved', result: { outcome: 'approved', status: 'APROVADO' } });

    const denied = await cli(['submit', 'fixtures/valid/bank-only.json', '--wait', '--timeout', '15', '--json'], env);
    expect(denied.code, denied.stderr).toBe(8);
    expect(parseSubmitJson(denied.stdout).results[0]).toMatchObject({ outcome: 'denied', result: { outcome: 'denied', reason: 'Margem consignável insuficiente' } });
    // The receiver showed both deliveries; home B's history (the team's) has both.
    const history = await cli(['history', '--json'], { ECONSIG_HOME: home() });
    expect(history.code, history.stderr).toBe(0);
    const entries = (JSON.parse(history.stdout) as { entries: Array<{ outcome: string; result: { outcome: string } | null }> }).entries;
    expect(entries.map((e) => `${e.outcome}/${e.result?.outcome}`).sort()).toEqual(['accepted/approved', 'accepted/denied']);
  });

  it('watch --contract in another home waits in the store (no listener) and exits 0 within a second of the delivery', async () => {
    const a = track(receiver([]));
    const url = await a.url();
    const b = track(startWatch(['--json', '--contract', 'C-FAR', '--timeout', '20'], { ECONSIG_HOME: home(), ECONSIG_DATABASE_URL: db }));
    expect(JSON.parse(await b.nextLine())).toMatchObject({ event: 'following', idContrato: 'C-FAR', store: expect.stringMatching(/^postgres:\/\/econsig@/) });
    const sent = Date.now();
    expect(await post(url, result('C-FAR', 'REPROVADO'))).toBe(200);
    expect(await b.exit).toBe(8);
    expect(Date.now() - sent).toBeLessThan(3_000); // a process exit included; the bench measures the delivery → result time
    expect(JSON.parse(b.lines[1]!)).toMatchObject({ event: 'result', idContrato: 'C-FAR', outcome: 'denied', source: 'store' });
  });

  it('the guard across homes: the same proposals from 4 homes at once are POSTed once each', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const files = ['fixtures/valid/bank-and-pix.json', 'fixtures/valid/bank-only.json', 'fixtures/valid/pix-only.json'];
    const runs = await Promise.all(Array.from({ length: 4 }, () => cli(['submit', ...files, '--json'], cliEnv(home(), sbx.sandbox.url, sbx.sandbox.token))));
    const posts = sbx.log.filter((l) => l.idProposta !== undefined).map((l) => l.idProposta).sort();
    expect(posts).toEqual(['PROP-1001', 'PROP-1002', 'PROP-1003']);
    for (const r of runs) expect([0, 5], r.stderr).toContain(r.code);
    // Every home names the one contract each proposal got.
    const contracts = new Set(runs.flatMap((r) => parseSubmitJson(r.stdout).results.map((x) => x.idContrato ?? 'none')));
    expect([...contracts].filter((c) => c !== 'none')).toHaveLength(3);
    expect(await count('econsig_submissions')).toBe(3);
  });

  it('two receivers on one database store a delivery once: same webhook-id, or same body', async () => {
    const [r1, r2] = [track(receiver([])), track(receiver([]))];
    const [u1, u2] = [await r1.url(), await r2.url()];
    const body = result('C-DUP');
    const statuses = await Promise.all([post(u1, body), post(u2, body), post(u1, body)]);
    expect(statuses).toEqual([200, 200, 200]);
    const other = result('C-DUP2');
    expect(await post(u1, other, { 'webhook-id': 'msg-1' })).toBe(200);
    expect(await post(u2, other.replace('08:00', '08:01'), { 'webhook-id': 'msg-1' })).toBe(200);
    expect(await count('econsig_deliveries')).toBe(2);
    const m1 = (await get(u1.replace('/webhook', '/metrics'))).text;
    const m2 = (await get(u2.replace('/webhook', '/metrics'))).text;
    const dups = [m1, m2].reduce((sum, m) => sum + Number(/deliveries_total\{outcome="duplicate"\} (\d+)/.exec(m)![1]), 0);
    expect(dups).toBe(3);
    expect(await r1.stop()).toBe(0);
    expect(await r2.stop()).toBe(0);
    const shown = [...r1.lines, ...r2.lines].filter((l) => l.includes('"event":"result"'));
    expect(shown).toHaveLength(2);
  });

  describe('callback authentication on the team receiver', () => {
    const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;
    const signed = (secret: string) => (b: string) => {
      const ts = Math.floor(Date.now() / 1000);
      const id = `msg_${Math.random().toString(36).slice(2)}`;
      return { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': signWebhook(secret, id, ts, b) };
    };
    it.each([
      ['standard-webhooks', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', signed('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'), signed('whsec_b3RoZXJzZWNyZXQ=')],
      ['bearer', 'team-bearer-0123456789', () => ({ authorization: 'Bearer team-bearer-0123456789' }), () => ({ authorization: 'Bearer team-bearer-012345678' })],
      ['api-key', 'team-key-0123456789', () => ({ 'x-api-key': 'team-key-0123456789' }), () => ({ 'x-api-key': 'nope' })],
      ['basic', 'bmp:team-pass-0123', () => ({ authorization: basic('bmp:team-pass-0123') }), () => ({ authorization: basic('bmp:team-pass-0124') })],
    ] as const)('%s: right credential 200 (stored), wrong or missing 401 (not stored)', async (scheme, secret, right, wrong) => {
      const w = track(receiver(['--auth', scheme], { ECONSIG_WEBHOOK_SECRET: secret }));
      const url = await w.url();
      const ok = result(`C-${scheme}-ok`);
      expect(await post(url, ok, right(ok))).toBe(200);
      const bad = result(`C-${scheme}-bad`);
      expect(await post(url, bad, wrong(bad))).toBe(401);
      expect(await post(url, result(`C-${scheme}-none`))).toBe(401);
      expect(await count('econsig_deliveries')).toBe(1);
      expect(await w.stop()).toBe(0);
      expect(w.stderr()).not.toContain(secret);
    });
  });

  it('the database stopped and restarted under a running receiver: 503 and /readyz 503 while down, nothing 2xx unstored, serving again after', async () => {
    const w = track(receiver([]));
    const url = await w.url();
    const waiting = track(startWatch(['--json', '--contract', 'C-AFTER', '--timeout', '60'], { ECONSIG_HOME: home(), ECONSIG_DATABASE_URL: db }));
    await waiting.nextLine();
    const answered: Array<{ id: string; status: number }> = [];
    const send = async (id: string) => answered.push({ id, status: await post(url, result(id)) });
    await send('C-BEFORE');
    expect((await get(url.replace('/webhook', '/readyz'))).status).toBe(200);

    await pg.pause();
    expect((await get(url.replace('/webhook', '/readyz'))).status).toBe(503);
    expect((await get(url.replace('/webhook', '/healthz'))).status).toBe(200);
    await send('C-DOWN-1');
    await send('C-DOWN-2');
    expect(answered.slice(1).map((a) => a.status)).toEqual([503, 503]);
    const metrics = (await get(url.replace('/webhook', '/metrics'))).text;
    expect(metrics).toContain('econsig_receiver_refused_total{cause="store-unavailable"} 2');
    expect(metrics).toContain('econsig_receiver_ready 0');
    expect(w.child.exitCode).toBe(null);

    await pg.resume();
    await expect.poll(async () => (await get(url.replace('/webhook', '/readyz'))).status, { timeout: 15_000, interval: 200 }).toBe(200);
    // The sender retries what got 503; new deliveries are stored.
    await send('C-DOWN-1');
    await send('C-DOWN-2');
    await send('C-AFTER');
    expect(answered.slice(3).map((a) => a.status)).toEqual([200, 200, 200]);
    const stored = (await pg.psql('SELECT id_contrato FROM econsig_deliveries ORDER BY id', `team_${n}`)).trim().split('\n');
    const acknowledged = answered.filter((a) => a.status === 200).map((a) => a.id);
    expect(stored).toEqual(acknowledged);
    // The desk that waited across the outage reconnected and got its result.
    expect(await waiting.exit, waiting.stderr()).toBe(0);
    expect(await w.stop()).toBe(0);
  }, 60_000);

  it('the team demo script: desk → service → receiver → desk', async () => {
    const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
      execFile('bash', [join(repoRoot, 'scripts', 'team-demo.sh')], { env: { PATH: process.env.PATH, HOME: process.env.HOME, CI: '1', NO_COLOR: '1', ECONSIG_DATABASE_URL: db }, timeout: 60_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
      );
    });
    seenOutput.push(r.out);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain('results from the team store');
    expect(r.out).toMatch(/approved/);
    expect(r.out).toContain('submit --wait exited 0');
    // The script stops its receiver and sandbox: no econsig of it is left running.
    const left = await new Promise<string>((resolve) => execFile('ps', ['-eo', 'args'], (_e, out) => resolve(out)));
    expect(left.split('\n').filter((l) => l.includes('sbx_team_demo_') && l.includes(join(repoRoot, 'bin', 'econsig.js')))).toEqual([]);
  }, 90_000);

  it('a wrong password or a database that is not there: exit 74, the password never printed', async () => {
    const wrong = db.replace(encodeURIComponent(pg.password), 'Wr0ng-pa55word-here');
    const r = await runCli(['history', '--verbose'], { env: { ECONSIG_HOME: home(), ECONSIG_DATABASE_URL: wrong } });
    seenOutput.push(r.stdout, r.stderr);
    expect(r.code).toBe(74);
    expect(r.stderr).toContain(`postgres://econsig@127.0.0.1:${pg.port}/team_${n}`);
    expect(r.stderr).toContain('28P01');
    expect(r.stderr).not.toContain('Wr0ng-pa55word-here');
    const config = await cli(['config', 'get', 'database-url'], { ECONSIG_HOME: home() });
    expect(config.stdout.trim()).toBe(`postgres://econsig@127.0.0.1:${pg.port}/team_${n}`);
  });

  it('the password appears in no output of this file', () => {
    expect(seenOutput.length).toBeGreaterThan(10);
    for (const text of seenOutput) expect(text).not.toContain(pg.password);
  });
});

// The scratch home of useScratch is unused here (each machine gets its own), but its afterEach closes the sandboxes.
void scratch;
