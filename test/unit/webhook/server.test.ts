import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Webhook } from 'standardwebhooks';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../../src/record/sqlite.js';
import { ListenError, startListener, type Listener, type ListenerEvent, type ListenerOptions } from '../../../src/webhook/server.js';
import type { DeliveryRecord } from '../../../src/webhook/delivery.js';
import { waitFor } from '../../wait-for.js';

let home: string;
let store: SqliteStore;
let events: ListenerEvent[];
const toClose: Array<() => Promise<unknown>> = [];

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'econsig-listener-'));
  store = await SqliteStore.open(home);
  events = [];
});
afterEach(async () => {
  for (const close of toClose.splice(0).reverse()) await close();
  await store.close();
  rmSync(home, { recursive: true, force: true });
});

async function listen(extra: Partial<ListenerOptions> = {}): Promise<Listener> {
  const l = await startListener({ host: '127.0.0.1', port: 0, path: '/webhook', store, onEvent: (e) => events.push(e), ...extra });
  toClose.push(() => l.close());
  return l;
}

async function post(url: string, body: string | Buffer, headers: Record<string, string> = {}) {
  const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers }, headersTimeout: 5000, bodyTimeout: 5000 });
  const text = await res.body.text();
  return { status: res.statusCode, text };
}

const deliveries = () => events.filter((e): e is Extract<ListenerEvent, { kind: 'delivery' }> => e.kind === 'delivery');
/** The deliveries table, read through a connection of its own (as another process would). */
const stored = (): Array<{ webhookId: string | null; idContrato: string | null; outcome: string; verified: boolean | null; payload: unknown }> => {
  const db = new DatabaseSync(join(home, 'econsig.db'), { readOnly: true });
  try {
    return (db.prepare('SELECT webhook_id, id_contrato, outcome, verified, payload FROM deliveries ORDER BY id').all() as Array<Record<string, unknown>>).map((r) => ({
      webhookId: r.webhook_id as string | null,
      idContrato: r.id_contrato as string | null,
      outcome: r.outcome as string,
      verified: r.verified === null ? null : r.verified === 1,
      payload: JSON.parse(r.payload as string) as unknown,
    }));
  } finally {
    db.close();
  }
};
const sandboxBody = (status = 'APROVADO', id: string = randomUUID()) =>
  JSON.stringify({ evento: 'RESULTADO_PROPOSTA', idContrato: id, idProposta: 'PROP-1001', status, motivo: null, dataHora: new Date().toISOString() });

describe('listener: shapes', () => {
  const shapes: [string, object, { idContrato: string | null; outcome: string }][] = [
    ['sandbox', JSON.parse(sandboxBody('APROVADO', 'C-1')), { idContrato: 'C-1', outcome: 'approved' }],
    ['sandbox denied', JSON.parse(sandboxBody('REPROVADO', 'C-2')), { idContrato: 'C-2', outcome: 'denied' }],
    ['Celcoin', { type: 'APPLICATION_STATUS_UPDATED', payload: { application_id: 'A-1', status: 'CANCELED' } }, { idContrato: 'A-1', outcome: 'cancelled' }],
    ['V8', { type: 'private.consignment.consult.updated', consultId: 'V-1', status: 'REJECTED' }, { idContrato: 'V-1', outcome: 'denied' }],
    ['Semear', { webhook_type: 'worker_credit.endorsement', success: false, data: { id: 'S-1' } }, { idContrato: 'S-1', outcome: 'denied' }],
    ['nested contrato.id', { data: { contrato: { id: 'N-1', situacao: 'APROVADA' } } }, { idContrato: 'N-1', outcome: 'approved' }],
    ['unknown status', { idContrato: 'U-1', status: 'EM_ANALISE' }, { idContrato: 'U-1', outcome: 'unknown' }],
  ];
  it.each(shapes)('%s → 200, stored, one delivery event', async (_name, payload, want) => {
    const l = await listen();
    const r = await post(l.url, JSON.stringify(payload));
    expect(r.status).toBe(200);
    expect(deliveries()).toHaveLength(1);
    expect(deliveries()[0]).toMatchObject({ ...want, verified: null, payload });
    expect(stored()).toEqual([expect.objectContaining({ ...want, payload })]);
  });

  it('uses the operator\'s field names', async () => {
    const l = await listen({ extractOptions: { idField: 'key', statusField: 'data.reservation_status' } });
    await post(l.url, JSON.stringify({ key: 'K-9', data: { reservation_status: 'Aprovado' } }));
    expect(deliveries()[0]).toMatchObject({ idContrato: 'K-9', status: 'Aprovado', outcome: 'approved' });
  });
});

describe('listener: bad requests', () => {
  it('400 for a body that is not JSON, and keeps serving', async () => {
    const l = await listen();
    expect((await post(l.url, '{"idContrato": ')).status).toBe(400);
    expect((await post(l.url, '')).status).toBe(400);
    expect(events.filter((e) => e.kind === 'invalid')).toHaveLength(2);
    expect((await post(l.url, sandboxBody())).status).toBe(200);
    expect(stored()).toHaveLength(1);
  });

  it('400 for JSON nested 100,000 levels deep, and keeps serving', async () => {
    const l = await listen();
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const answer = await post(l.url, deep);
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('nested deeper');
    expect((await post(l.url, `[${'['.repeat(100_000)}${']'.repeat(100_000)}]`)).status).toBe(400);
    expect((await post(l.url, sandboxBody())).status).toBe(200);
    expect(stored()).toHaveLength(1);
  });

  it('413 at once for a declared Content-Length over 1 MiB, without reading the body', async () => {
    const l = await listen();
    const answer = await rawExchange(l.port, `POST /webhook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n{"a":`);
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(stored()).toHaveLength(0);
  });

  it('413 for a chunked body that grows past 1 MiB', async () => {
    const l = await listen();
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: l.port, path: '/webhook', method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', (e) => (e as NodeJS.ErrnoException).code === 'ECONNRESET' || (e as NodeJS.ErrnoException).code === 'EPIPE' ? undefined : reject(e));
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      for (let i = 0; i < 20; i++) req.write(chunk);
      req.end();
    });
    expect(status).toBe(413);
    expect((await post(l.url, sandboxBody())).status).toBe(200);
  });

  it('exactly 1 MiB is accepted', async () => {
    const l = await listen();
    const head = '{"idContrato":"BIG","pad":"';
    const body = head + 'x'.repeat(1024 * 1024 - head.length - 2) + '"}';
    expect(Buffer.byteLength(body)).toBe(1024 * 1024);
    expect((await post(l.url, body)).status).toBe(200);
  });

  it('404 off the path, 405 for another method, healthz 200 naming the service and the store\'s id, never its path', async () => {
    const l = await listen({ storeId: 'id-of-the-store' });
    const base = `http://127.0.0.1:${l.port}`;
    expect((await post(`${base}/other`, '{}')).status).toBe(404);
    const get = await request(l.url, { method: 'GET' });
    await get.body.dump();
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe('POST');
    const health = await request(`${base}/healthz`);
    expect(health.statusCode).toBe(200);
    expect(await health.body.json()).toEqual({ ok: true, service: 'econsig-watch', storeId: 'id-of-the-store' });
    expect((await post(`${l.url}?x=1`, sandboxBody())).status).toBe(200);
  });

  it.each([
    ['bearer', { authorization: 'Bearer s3cret-callback-token' }, { authorization: 'Bearer wrong-token-123' }],
    ['api-key', { 'x-api-key': 's3cret-callback-token' }, { 'x-api-key': 'wrong' }],
    ['basic', { authorization: `Basic ${Buffer.from('user:s3cret').toString('base64')}` }, { authorization: `Basic ${Buffer.from('user:wrong').toString('base64')}` }],
  ] as const)('healthz with the %s callback credentials also names the store; without them or with wrong ones, only its id', async (scheme, right, wrong) => {
    const secret = scheme === 'basic' ? 'user:s3cret' : 's3cret-callback-token';
    const l = await listen({ storeId: 'id-of-the-store', auth: { scheme, secret } });
    const health = async (headers: Record<string, string>) => (await request(`http://127.0.0.1:${l.port}/healthz`, { headers })).body.json();
    expect(await health(right)).toEqual({ ok: true, service: 'econsig-watch', storeId: 'id-of-the-store', store: join(home, 'econsig.db') });
    for (const headers of [{}, wrong]) expect(await health(headers)).toEqual({ ok: true, service: 'econsig-watch', storeId: 'id-of-the-store' });
    // Asking is no delivery: nothing counted as refused.
    expect(l.stats().rejected).toBe(0);
  });

  it('healthz with a Standard Webhooks signature over an empty body also names the store', async () => {
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const l = await listen({ storeId: 'id-of-the-store', secret });
    const at = new Date();
    const signed = { 'webhook-id': 'health-1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign('health-1', at, '') };
    const health = async (headers: Record<string, string>) => (await request(`http://127.0.0.1:${l.port}/healthz`, { headers })).body.json();
    expect(await health(signed)).toMatchObject({ store: join(home, 'econsig.db') });
    expect(await health({})).not.toHaveProperty('store');
  });

  it('cuts a client that never finishes its headers', async () => {
    const l = await listen({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const started = Date.now();
    const answer = await rawExchange(l.port, 'POST /webhook HTTP/1.1\r\nHost: x\r\n', 5000);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(answer === '' || /^HTTP\/1\.1 408/.test(answer)).toBe(true);
    expect((await post(l.url, sandboxBody())).status).toBe(200);
  });

  it('answers garbage on the socket with 400 and keeps running', async () => {
    const l = await listen();
    expect(await rawExchange(l.port, 'NOT HTTP AT ALL\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
    expect((await post(l.url, sandboxBody())).status).toBe(200);
  });
});

describe('listener: duplicates', () => {
  it('same webhook-id → 200, stored and shown once', async () => {
    const l = await listen();
    expect((await post(l.url, sandboxBody('APROVADO', 'C-1'), { 'webhook-id': 'msg_1' })).status).toBe(200);
    const again = await post(l.url, sandboxBody('APROVADO', 'C-1'), { 'webhook-id': 'msg_1' });
    expect(again.status).toBe(200);
    expect(JSON.parse(again.text)).toMatchObject({ duplicate: true });
    expect(deliveries()).toHaveLength(1);
    expect(events.filter((e) => e.kind === 'duplicate')).toHaveLength(1);
    expect(stored()).toHaveLength(1);
  });

  it('same body without webhook-id → duplicate; a different body is new', async () => {
    const l = await listen();
    const body = sandboxBody();
    await post(l.url, body);
    await post(l.url, body);
    await post(l.url, sandboxBody());
    expect(deliveries()).toHaveLength(2);
    expect(stored()).toHaveLength(2);
  });

  it('concurrent copies of one delivery are stored once', async () => {
    const l = await listen();
    const body = sandboxBody();
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(l.url, body, { 'webhook-id': 'same' })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(stored()).toHaveLength(1);
  });

  it('copies arriving while the first copy fails to be stored: one of them is stored and shown, once', async () => {
    let calls = 0;
    let failFirst: (error: Error) => void = () => undefined;
    let firstWriting: () => void = () => undefined;
    const writing = new Promise<void>((resolve) => (firstWriting = resolve));
    const flaky = {
      location: store.location,
      markShown: (bodyHash: string) => store.markShown(bodyHash),
      recordForward: () => Promise.resolve(),
      ping: () => store.ping(),
      recordDelivery: (delivery: DeliveryRecord) => {
        calls++;
        // The first write fails only after the other copies were answered.
        if (calls === 1) {
          firstWriting();
          return new Promise<'stored'>((_, reject) => (failFirst = reject));
        }
        return store.recordDelivery(delivery);
      },
    };
    const l = await listen({ store: flaky });
    const body = sandboxBody();
    const first = post(l.url, body, { 'webhook-id': 'same' });
    await writing;
    const copies = await Promise.all(Array.from({ length: 3 }, () => post(l.url, body, { 'webhook-id': 'same' })));
    failFirst(new Error('ENOSPC'));
    const answers = [await first, ...copies];
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 503]);
    expect(answers.filter((a) => a.text.includes('duplicate'))).toHaveLength(2);
    expect(stored()).toHaveLength(1);
    expect(deliveries()).toHaveLength(1);
  });

  it('a retry of a delivery stored but left unshown (its listener stopped first) is shown then, and forwarded, once', async () => {
    const body = sandboxBody('APROVADO', 'C-LEFT');
    const stopped = await SqliteStore.open(home);
    const at = new Date().toISOString();
    const kept = { receivedAt: at, webhookId: 'msg_left', bodyHash: createHash('sha256').update(body).digest('hex'), idContrato: 'C-LEFT', idProposta: 'PROP-1001', status: 'APROVADO', outcome: 'approved' as const, reason: null, verified: null, payload: body };
    // Stored, then the process ended before its line: never marked shown; long enough ago that no receiver is still showing it.
    expect(await stopped.recordDelivery(kept)).toBe('stored');
    await stopped.close();
    const db = new DatabaseSync(join(home, 'econsig.db'));
    db.exec("UPDATE deliveries SET unshown_since = '2020-01-01T00:00:00.000Z'");
    db.close();
    const app = await startApp(async (_req, _body, res) => void res.writeHead(204).end());
    const l = await listen({ forwardTo: `http://127.0.0.1:${app.port}/hooks` });
    const retries = await Promise.all(Array.from({ length: 3 }, () => post(l.url, body, { 'webhook-id': 'msg_left' })));
    expect(retries.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(retries.filter((r) => r.text.includes('duplicate'))).toHaveLength(2);
    expect(deliveries()).toEqual([expect.objectContaining({ idContrato: 'C-LEFT', webhookId: 'msg_left' })]);
    await waitFor(() => events.some((e) => e.kind === 'forwarded'));
    expect(JSON.parse((await post(l.url, body, { 'webhook-id': 'msg_left' })).text)).toMatchObject({ duplicate: true });
    await l.close();
    expect(app.paths).toEqual(['/hooks']);
    expect(stored()).toHaveLength(1);
  });

  it('copies at two listeners on one store at once: stored once, shown once, every copy 2xx', async () => {
    const other = await SqliteStore.open(home);
    toClose.push(() => other.close());
    const otherEvents: ListenerEvent[] = [];
    const [a, b] = [await listen(), await listen({ store: other, onEvent: (e) => otherEvents.push(e) })];
    const bodies = Array.from({ length: 20 }, () => sandboxBody());
    const answers = await Promise.all(bodies.flatMap((body) => [post(a.url, body), post(b.url, body), post(b.url, body)]));
    expect(answers.map((r) => r.status)).toEqual(Array(60).fill(200));
    const shown = [...events, ...otherEvents].filter((e) => e.kind === 'delivery');
    expect(shown).toHaveLength(20);
    expect(stored()).toHaveLength(20);
  });

  it('remembers deliveries stored before a restart, and those of another listener on the same store', async () => {
    const body = sandboxBody();
    const first = await listen();
    await post(first.url, body, { 'webhook-id': 'msg_r' });
    await first.close();
    const other = await SqliteStore.open(home);
    toClose.push(() => other.close());
    const second = await listen({ store: other });
    expect(JSON.parse((await post(second.url, body, { 'webhook-id': 'msg_r' })).text)).toMatchObject({ duplicate: true });
    expect(stored()).toHaveLength(1);
  });
});

describe('listener: signatures', () => {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const signed = (id: string, body: string, at = new Date()) => ({
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  });

  it('accepts a delivery signed by standardwebhooks: verified true', async () => {
    const l = await listen({ secret });
    const body = sandboxBody();
    expect((await post(l.url, body, signed('msg_ok', body))).status).toBe(200);
    expect(deliveries()[0]).toMatchObject({ verified: true, webhookId: 'msg_ok' });
    expect(stored()[0]).toMatchObject({ verified: true });
  });

  it('401 for a tampered body, a stale timestamp and missing headers; nothing stored', async () => {
    const l = await listen({ secret });
    const body = sandboxBody();
    expect((await post(l.url, body.replace('PROP-1001', 'PROP-9999'), signed('m1', body))).status).toBe(401);
    const stale = new Date(Date.now() - 10 * 60 * 1000);
    const staleAnswer = await post(l.url, body, signed('m2', body, stale));
    expect(staleAnswer.status).toBe(401);
    expect(staleAnswer.text).toContain('valid signature but timestamp outside the 5-minute window');
    expect((await post(l.url, body)).status).toBe(401);
    expect(events.map((e) => (e.kind === 'rejected' ? e.reason : e.kind))).toEqual(['bad-signature', 'stale-timestamp', 'missing-headers']);
    expect(stored()).toHaveLength(0);
  });

  it('checks the signature before parsing: a signed non-JSON body is a 400, an unsigned one a 401', async () => {
    const l = await listen({ secret });
    expect((await post(l.url, 'nope', signed('m3', 'nope'))).status).toBe(400);
    expect((await post(l.url, 'nope')).status).toBe(401);
  });
});

describe('listener: store and 2xx', () => {
  it('stored rows equal the 2xx count under concurrent mixed traffic', async () => {
    const l = await listen();
    const dup = sandboxBody();
    const bodies = [...Array.from({ length: 150 }, () => sandboxBody()), ...Array(20).fill(dup), ...Array(10).fill('not json')];
    const answers = await Promise.all(bodies.map((b) => post(l.url, b)));
    const ok = answers.filter((a) => a.status >= 200 && a.status < 300 && !a.text.includes('duplicate')).length;
    expect(ok).toBe(151);
    expect(stored()).toHaveLength(ok);
    expect(answers.filter((a) => a.status === 400)).toHaveLength(10);
    expect((await l.close()).received).toBe(151);
  });

  it('GET /readyz follows the store: 503 while it says deliveries cannot be stored, 200 again when they can', async () => {
    let full = true;
    const sink = {
      location: store.location,
      recordDelivery: (delivery: DeliveryRecord) => store.recordDelivery(delivery),
      markShown: (bodyHash: string) => store.markShown(bodyHash),
      recordForward: () => Promise.resolve(),
      ping: async () => {
        if (full) throw new Error('ENOSPC');
      },
    };
    const l = await listen({ store: sink });
    const readyz = l.url.replace('/webhook', '/readyz');
    const answer = async () => {
      const res = await request(readyz);
      return { status: res.statusCode, body: (await res.body.json()) as object };
    };
    expect(await answer()).toEqual({ status: 503, body: { ok: false, error: 'deliveries cannot be stored now' } });
    expect((await (await request(l.url.replace('/webhook', '/metrics'))).body.text())).toContain('econsig_receiver_ready 0');
    full = false;
    expect(await answer()).toEqual({ status: 200, body: { ok: true } });
  });

  it('keeps the headers with each credential redacted, the api-key header too whatever webhook.api-key-header names it', async () => {
    const l = await listen({ auth: { scheme: 'api-key', secret: 'hunter2-partner', apiKeyHeader: 'X-Partner-Auth' } });
    const body = sandboxBody('APROVADO', 'K-1');
    expect((await post(l.url, body, { 'x-partner-auth': 'hunter2-partner', 'webhook-id': 'msg_k1', 'x-custom': 'kept' })).status).toBe(200);
    const kept = await store.event('msg_k1');
    expect(kept?.headers).toMatchObject({ 'x-partner-auth': '[redacted]', 'x-custom': 'kept' });
    expect(JSON.stringify(kept)).not.toContain('hunter2-partner');
  });

  it('answers 503 (so the sender retries) when the store cannot record it', async () => {
    const l = await listen();
    await store.close();
    const body = sandboxBody();
    expect((await post(l.url, body)).status).toBe(503);
    expect(events.at(-1)).toMatchObject({ kind: 'error' });
    expect(deliveries()).toHaveLength(0);
    // Not remembered as seen: the retry is processed again (and fails again here).
    expect((await post(l.url, body)).status).toBe(503);
  });
});

describe('listener: forwarding', () => {
  it('relays headers and raw body unchanged, reports the status, and does not wait for it', async () => {
    const got: { headers: IncomingHttpHeaders; body: Buffer }[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const app = await startApp(async (req, body, res) => {
      got.push({ headers: req.headers, body });
      await gate;
      res.writeHead(201).end('made');
    });
    const l = await listen({ forwardTo: `http://127.0.0.1:${app.port}/hooks?src=econsig` });
    const body = '{"idContrato": "F-1",  "status":"APROVADO"}';
    const sender = await post(l.url, body, { 'webhook-id': 'msg_f', 'x-custom': 'kept' });
    expect(sender.status).toBe(200);
    await waitFor(() => got.length === 1);
    expect(events.some((e) => e.kind === 'forwarded')).toBe(false);
    release();
    await waitFor(() => events.some((e) => e.kind === 'forwarded'));
    expect(got[0]!.body.toString()).toBe(body);
    expect(got[0]!.headers).toMatchObject({ 'webhook-id': 'msg_f', 'x-custom': 'kept', 'content-type': 'application/json' });
    expect(app.paths).toEqual(['/hooks?src=econsig']);
    expect(events.find((e) => e.kind === 'forwarded')).toMatchObject({ httpStatus: 201, error: null, idContrato: 'F-1' });
  });

  it('with a secret: the original headers and a fresh signature of the watch\'s own secret the app verifies; what the app answered is kept with the delivery', async () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const got: { headers: IncomingHttpHeaders; body: Buffer }[] = [];
    const app = await startApp(async (req, body, res) => {
      got.push({ headers: req.headers, body });
      res.writeHead(502).end();
    });
    const l = await listen({ secret, forwardTo: `http://127.0.0.1:${app.port}/hooks` });
    const body = sandboxBody('APROVADO', 'F-2');
    const sentAt = Math.floor(Date.now() / 1000) - 60;
    const signed = new Webhook(secret).sign('msg_f2', new Date(sentAt * 1000), body);
    expect((await post(l.url, body, { 'webhook-id': 'msg_f2', 'webhook-timestamp': String(sentAt), 'webhook-signature': signed, 'x-custom': 'kept' })).status).toBe(200);
    await waitFor(() => events.some((e) => e.kind === 'forwarded'));
    const relayed = got[0]!;
    expect(relayed.headers).toMatchObject({ 'webhook-id': 'msg_f2', 'x-custom': 'kept' });
    expect(Number(relayed.headers['webhook-timestamp'])).toBeGreaterThan(sentAt);
    expect(new Webhook(secret).verify(relayed.body.toString(), relayed.headers as Record<string, string>)).toMatchObject({ idContrato: 'F-2' });
    await waitFor(async () => (await store.event('msg_f2'))?.forward !== null);
    const kept = await store.event('msg_f2');
    expect(kept?.forward).toMatchObject({ url: `http://127.0.0.1:${app.port}/hooks`, httpStatus: 502, error: null });
    expect(kept?.headers).toMatchObject({ 'webhook-id': 'msg_f2', 'webhook-signature': '[redacted]', 'x-custom': 'kept' });
  });

  it('reports a forward that cannot connect, while the sender still gets 200', async () => {
    const dead = await startApp(async () => {});
    const deadPort = dead.port;
    await dead.close();
    const l = await listen({ forwardTo: `http://127.0.0.1:${deadPort}/x` });
    expect((await post(l.url, sandboxBody())).status).toBe(200);
    await waitFor(() => events.some((e) => e.kind === 'forwarded'));
    expect(events.find((e) => e.kind === 'forwarded')).toMatchObject({ httpStatus: null, error: expect.stringContaining('ECONNREFUSED') });
  });
});

describe('listener: binding', () => {
  it('rejects with EADDRINUSE when the port is taken', async () => {
    const first = await listen();
    const err = await startListener({ host: '127.0.0.1', port: first.port, path: '/webhook', store, onEvent: () => {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ListenError);
    expect(err).toMatchObject({ code: 'EADDRINUSE', port: first.port });
    expect(String((err as Error).message)).toContain('EADDRINUSE');
  });

  it('close() resolves with the count and frees the port', async () => {
    const l = await listen();
    await post(l.url, sandboxBody());
    expect(await l.close()).toMatchObject({ received: 1 });
    await expect(request(l.url, { method: 'POST', body: '{}' })).rejects.toThrow();
  });
});

function rawExchange(port: number, text: string, timeoutMs = 3000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within ${timeoutMs} ms; got ${JSON.stringify(data)}`));
    }, timeoutMs);
    socket.on('data', (d) => (data += d.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(data);
    });
    socket.write(text);
  });
}

async function startApp(handler: (req: import('node:http').IncomingMessage, body: Buffer, res: import('node:http').ServerResponse) => Promise<void>) {
  const paths: string[] = [];
  const server: Server = createServer((req, res) => {
    paths.push(req.url ?? '');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void handler(req, Buffer.concat(chunks), res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const close = () => new Promise<void>((r) => {
    server.closeAllConnections();
    server.close(() => r());
  });
  toClose.push(close);
  return { port: (server.address() as AddressInfo).port, paths, close };
}

