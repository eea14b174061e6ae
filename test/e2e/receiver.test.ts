/**
 * The receiver's own features through the built binary (issue 15): callback
 * authentication in every scheme, HTTPS, /readyz and /metrics, structured logs with
 * --json, and SIGTERM draining a delivery in flight.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signWebhook } from '../../src/webhook/verify.js';
import { runCli } from './run-cli.js';
import { killWatches, startWatch } from './watch-process.js';
import { waitFor } from '../wait-for.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'econsig-e2e-receiver-'));
});
afterEach(() => {
  killWatches();
  rmSync(home, { recursive: true, force: true });
});

const body = (idContrato: string, status = 'APROVADO') =>
  JSON.stringify({ evento: 'RESULTADO_PROPOSTA', idContrato, idProposta: 'PROP-1001', status, motivo: null, dataHora: new Date().toISOString() });

async function post(url: string, text: string, headers: Record<string, string> = {}, dispatcher?: Agent): Promise<number> {
  const res = await request(url, { method: 'POST', body: text, headers: { 'content-type': 'application/json', ...headers }, ...(dispatcher ? { dispatcher } : {}) });
  await res.body.dump();
  return res.statusCode;
}

async function get(url: string): Promise<{ status: number; text: string; type: string | undefined }> {
  const res = await request(url);
  return { status: res.statusCode, text: await res.body.text(), type: res.headers['content-type'] as string | undefined };
}

/** Whether something accepts a TCP connection on this port of 127.0.0.1 now. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(port, '127.0.0.1');
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;
const whsec = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describe('callback authentication (--auth)', () => {
  type Case = { scheme: string; secret: string; extra?: string[]; right: (b: string) => Record<string, string>; wrong: (b: string) => Record<string, string> };
  const swHeaders = (secret: string) => (b: string) => {
    const ts = Math.floor(Date.now() / 1000);
    const id = `msg_${Math.random().toString(36).slice(2)}`;
    return { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': signWebhook(secret, id, ts, b) };
  };
  const cases: Case[] = [
    { scheme: 'standard-webhooks', secret: whsec, right: swHeaders(whsec), wrong: swHeaders('whsec_b3RoZXJzZWNyZXQ=') },
    { scheme: 'bearer', secret: 'tok-0123456789abcdef', right: () => ({ authorization: 'Bearer tok-0123456789abcdef' }), wrong: () => ({ authorization: 'Bearer tok-0123456789abcdeF' }) },
    { scheme: 'api-key', secret: 'key-0123456789', right: () => ({ 'x-api-key': 'key-0123456789' }), wrong: () => ({ 'x-api-key': 'key-012345678' }) },
    { scheme: 'basic', secret: 'bmp:s3nh4-forte', right: () => ({ authorization: basic('bmp:s3nh4-forte') }), wrong: () => ({ authorization: basic('bmp:s3nh4-fraca') }) },
  ];
  it.each(cases)('$scheme: right credential 200, wrong or missing 401, counted in /metrics', async ({ scheme, secret, right, wrong }) => {
    const run = startWatch(['--port', '0', '--json', '--auth', scheme], { ECONSIG_HOME: home, ECONSIG_WEBHOOK_SECRET: secret });
    const url = await run.url();
    const b1 = body('C-RIGHT');
    expect(await post(url, b1, right(b1))).toBe(200);
    const b2 = body('C-WRONG');
    expect(await post(url, b2, wrong(b2))).toBe(401);
    expect(await post(url, body('C-MISSING'))).toBe(401);
    const metrics = await get(url.replace('/webhook', '/metrics'));
    expect(metrics.text).toContain('econsig_receiver_deliveries_total{outcome="approved"} 1');
    const refused = [...metrics.text.matchAll(/^econsig_receiver_refused_total\{cause="([^"]+)"\} (\d+)$/gm)].reduce((n, m) => n + Number(m[2]), 0);
    expect(refused).toBe(2);
    expect(await run.stop()).toBe(0);
    expect(run.stderr()).not.toContain(secret);
    const results = run.lines.slice(1).map((l) => JSON.parse(l) as { idContrato: string; verified: boolean });
    expect(results).toEqual([expect.objectContaining({ idContrato: 'C-RIGHT', verified: true })]);
  });

  it('api-key with a header named in config', async () => {
    expect((await runCli(['config', 'set', 'webhook.api-key-header', 'API-CLIENT-KEY'], { env: { ECONSIG_HOME: home } })).code).toBe(0);
    expect((await runCli(['config', 'set', 'webhook.auth', 'api-key'], { env: { ECONSIG_HOME: home } })).code).toBe(0);
    const run = startWatch(['--port', '0', '--json'], { ECONSIG_HOME: home, ECONSIG_WEBHOOK_SECRET: 'key-0123456789' });
    const url = await run.url();
    expect(await post(url, body('C-1'), { 'x-api-key': 'key-0123456789' })).toBe(401);
    expect(await post(url, body('C-2'), { 'api-client-key': 'key-0123456789' })).toBe(200);
    expect(await run.stop()).toBe(0);
  });

  it.each([
    [['--auth', 'bearer'], {}, '--auth bearer needs a secret'],
    [['--auth', 'basic'], { ECONSIG_WEBHOOK_SECRET: 'no-colon-here' }, 'user:password'],
    [['--auth', 'jwt'], {}, "argument 'jwt' is invalid"],
  ])('%j with %j: exit 2 naming the problem', async (args, env, message) => {
    const r = await runCli(['watch', '--port', '0', ...args], { env: { ECONSIG_HOME: home, ...env } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });
});

describe('HTTPS (--tls-cert/--tls-key)', () => {
  let dir: string;
  let cert: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'econsig-e2e-tls-'));
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    ], { stdio: 'ignore' });
    cert = execFileSync('cat', [join(dir, 'cert.pem')]).toString();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves the webhook over TLS', async () => {
    const run = startWatch(['--port', '0', '--json', '--tls-cert', join(dir, 'cert.pem'), '--tls-key', join(dir, 'key.pem')], { ECONSIG_HOME: home });
    const url = await run.url();
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/webhook$/);
    const agent = new Agent({ connect: { ca: cert } });
    try {
      expect(await post(url, body('C-TLS'), {}, agent)).toBe(200);
    } finally {
      await agent.close();
    }
    expect(JSON.parse((await run.nextLine()) ?? '{}')).toMatchObject({ event: 'result', idContrato: 'C-TLS' });
    expect(await run.stop()).toBe(0);
  });

  it.each([
    [['--tls-cert', 'cert.pem'], '--tls-cert needs --tls-key too'],
    [['--tls-cert', 'cert.pem', '--tls-key', 'missing.pem'], 'Cannot read --tls-key'],
    [['--tls-cert', 'key.pem', '--tls-key', 'key.pem'], 'cannot be used together'],
  ])('%j: exit 2, %s', async (args, message) => {
    const r = await runCli(['watch', '--port', '0', ...args.map((a) => (a.endsWith('.pem') ? join(dir, a) : a))], { env: { ECONSIG_HOME: home } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('probes and shutdown', () => {
  it('/healthz and /readyz 200, /metrics in the Prometheus text format', async () => {
    const run = startWatch(['--port', '0', '--json'], { ECONSIG_HOME: home });
    const url = await run.url();
    expect((await get(url.replace('/webhook', '/healthz'))).status).toBe(200);
    expect((await get(url.replace('/webhook', '/readyz'))).status).toBe(200);
    expect(await post(url, body('C-1'))).toBe(200);
    expect(await post(url, body('C-1').replace('"C-1"', '"C-1" '))).toBe(200);
    expect(await post(url, 'not json')).toBe(400);
    const m = await get(url.replace('/webhook', '/metrics'));
    expect(m.status).toBe(200);
    expect(m.type).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(m.text).toContain('# TYPE econsig_receiver_request_duration_seconds histogram');
    expect(m.text).toContain('econsig_receiver_deliveries_total{outcome="approved"} 2');
    expect(m.text).toContain('econsig_receiver_refused_total{cause="not-json"} 1');
    expect(m.text).toContain('econsig_receiver_request_duration_seconds_count{code="2xx"} 2');
    expect(m.text).toContain('econsig_receiver_ready 1');
    expect(await run.stop()).toBe(0);
  });

  it('SIGTERM lets a delivery in flight finish (200, recorded), then exits 0', async () => {
    const run = startWatch(['--port', '0', '--json'], { ECONSIG_HOME: home });
    const url = new URL(await run.url());
    const text = body('C-DRAIN');
    const port = Number(url.port);
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const answered = new Promise<void>((r) =>
      socket.on('data', (d) => {
        answer += d.toString();
        if (answer.includes('\r\n\r\n')) r();
      }),
    );
    const closed = new Promise<void>((r) => socket.on('close', () => r()));
    await new Promise<void>((r) => socket.once('connect', () => r()));
    // Headers and half the body: the delivery is in flight (the listener counts it) when SIGTERM arrives.
    socket.write(`POST /webhook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text.slice(0, 20)}`);
    await waitFor(async () => (await get(url.href.replace('/webhook', '/metrics'))).text.includes('econsig_receiver_in_flight 1'));
    run.child.kill('SIGTERM');
    // SIGTERM is taken once the listener refuses new connections; the process still waits for the delivery.
    await waitFor(async () => !(await accepts(port)));
    expect(run.child.exitCode).toBe(null);
    // write, not end: an HTTP server drops a half-closed connection without answering.
    socket.write(text.slice(20));
    // The answer, or the connection dropped without one (then the status check below fails).
    await Promise.race([answered, closed]);
    socket.destroy();
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(await run.exit).toBe(0);
    expect(JSON.parse(run.lines[1] ?? '{}')).toMatchObject({ event: 'result', idContrato: 'C-DRAIN' });
    const history = await runCli(['history', '--contract', 'C-DRAIN', '--json'], { env: { ECONSIG_HOME: home } });
    expect(history.code).toBe(0);
  });
});
