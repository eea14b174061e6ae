import { afterEach, describe, expect, it } from 'vitest';
import { EconsigError } from '../../../src/errors.js';
import { CONTRACTS_PATH, startSandbox, type Sandbox, type SandboxLogEntry, type SandboxOptions } from '../../../src/sandbox/server.js';
import { send, startListener, validSubmission } from './helpers.js';
import { waitFor } from '../../wait-for.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const running: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function sandbox(options: SandboxOptions = {}): Promise<Sandbox & { logs: SandboxLogEntry[] }> {
  const logs: SandboxLogEntry[] = [];
  const sbx = await startSandbox({ port: 0, token: 'sbx_test', delayMs: 100, onLog: (e) => logs.push(e), ...options });
  running.push(sbx);
  return Object.assign(sbx, { logs });
}

function submit(sbx: Sandbox, body: unknown, headers: Record<string, string> = {}) {
  return send(`${sbx.url}${CONTRACTS_PATH}`, {
    headers: { authorization: `Bearer ${sbx.token}`, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('sandbox: submission answers', () => {
  it('202 with a UUID idContrato and empty erros for a valid known proposal', async () => {
    const sbx = await sandbox();
    expect(sbx.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await submit(sbx, validSubmission('PROP-1001'));
    expect(res.status).toBe(202);
    expect(res.json.idContrato).toMatch(UUID);
    expect(res.json.erros).toEqual([]);
    expect(sbx.contracts()).toMatchObject([{ idContrato: res.json.idContrato, idProposta: 'PROP-1001', workerCpf: '52998224725', finishedAt: null }]);
    expect(sbx.logs.at(-1)).toMatchObject({ event: 'request', method: 'POST', path: CONTRACTS_PATH, status: 202, idProposta: 'PROP-1001' });
  });

  it('a default token is a fresh sbx_ one', async () => {
    const sbx = await sandbox({ token: undefined });
    expect(sbx.token).toMatch(/^sbx_[0-9a-f]{32}$/);
  });

  it.each([
    ['missing', {}, ''],
    ['wrong', { authorization: 'Bearer nope' }, 'Token inválido ou expirado.'],
    ['not bearer', { authorization: 'Basic c2J4X3Rlc3Q=' }, 'Token inválido ou expirado.'],
  ])('401 {code, message} for a %s token', async (_name, auth, message) => {
    const sbx = await sandbox();
    const res = await send(`${sbx.url}${CONTRACTS_PATH}`, {
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify(validSubmission()),
    });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ code: 401, message });
  });

  it('404 SVC_P00003 for an unknown idProposta', async () => {
    const sbx = await sandbox();
    const res = await submit(sbx, validSubmission('PROP-9999'));
    expect(res.status).toBe(404);
    expect(res.json.erros).toEqual([{ codigo: 'SVC_P00003', msg: expect.stringContaining('PROP-9999') }]);
  });

  it('422 with SVC_V codes naming each field for invalid data, strict like the service', async () => {
    const sbx = await sandbox();
    const body = validSubmission('PROP-1001');
    body.pessoa.endereco.cep = '01310-100'; // validate would normalise this; the service does not
    body.pessoa.documento.uf = 'S';
    const res = await submit(sbx, body);
    expect(res.status).toBe(422);
    const codes = (res.json.erros as { codigo: string; msg: string }[]).map((e) => e.codigo);
    expect(codes).toEqual(expect.arrayContaining(['SVC_V00227', 'SVC_V00213']));
    expect(res.json.erros.find((e: { codigo: string }) => e.codigo === 'SVC_V00227').msg).toMatch(/^pessoa\.endereco\.cep: /);
    expect(sbx.contracts()).toHaveLength(0);
  });

  it('422 for a JSON body that is not an object', async () => {
    const sbx = await sandbox();
    const res = await submit(sbx, '[1,2]');
    expect(res.status).toBe(422);
    expect(res.json.erros[0].codigo).toBe('SVC_V00001');
  });

  it.each([
    ['400 for a body that is not JSON', { body: '{"idProposta": ' }, 400, 'SVC_R00400'],
    ['415 for a wrong content type', { headers: { 'content-type': 'text/plain' } }, 415, 'SVC_R00415'],
    ['404 elsewhere', { path: '/api/v1/e-consignado/propostas' }, 404, 'SVC_R00404'],
    ['405 for another method', { method: 'GET' }, 405, 'SVC_R00405'],
  ])('%s', async (_name, o: { body?: string; headers?: Record<string, string>; path?: string; method?: string }, status, code) => {
    const sbx = await sandbox();
    const res = await send(`${sbx.url}${o.path ?? CONTRACTS_PATH}`, {
      method: o.method ?? 'POST',
      headers: { authorization: `Bearer ${sbx.token}`, 'content-type': 'application/json', ...o.headers },
      body: o.method === 'GET' ? undefined : (o.body ?? JSON.stringify(validSubmission())),
    });
    expect(res.status).toBe(status);
    expect(res.json.erros[0].codigo).toBe(code);
    if (status === 405) expect(res.headers.allow).toBe('POST');
  });

  it('413 for a body over 1 MiB', async () => {
    const sbx = await sandbox();
    const res = await submit(sbx, JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 10) }));
    expect(res.status).toBe(413);
  });
});

describe('sandbox: one contract in progress per worker', () => {
  it('rejects PROP-1004 while PROP-1001 (same worker) is in progress, accepts it after the delay', async () => {
    const sbx = await sandbox({ delayMs: 150 });
    const first = await submit(sbx, validSubmission('PROP-1001'));
    expect(first.status).toBe(202);
    const second = await submit(sbx, validSubmission('PROP-1004'));
    expect(second.status).toBe(422);
    expect(second.json.erros).toEqual([{ codigo: 'SVC_C00001', msg: expect.stringContaining(first.json.idContrato) }]);
    // Another worker is not affected.
    expect((await submit(sbx, validSubmission('PROP-1003'))).status).toBe(202);
    await waitFor(() => sbx.contracts().find((c) => c.idContrato === first.json.idContrato)?.finishedAt);
    const third = await submit(sbx, validSubmission('PROP-1004'));
    expect(third.status).toBe(202);
  });
});

describe('sandbox: Pix linkage', () => {
  it('a linked key sent with bank data: the contract records the key\'s bank data (log and webhook)', async () => {
    const listener = await startListener();
    running.push(listener);
    const sbx = await sandbox({ delayMs: 20, webhookUrl: listener.url });
    const res = await submit(sbx, validSubmission('PROP-1001', { compe: '341', agencia: '9999', conta: '11111-1', tipo: 'POUPANCA', chavePix: '52998224725' }));
    expect(res.status).toBe(202);
    const keyBank = { compe: '260', agencia: '0001', conta: '1234567-8', tipo: 'CORRENTE', chavePix: '52998224725' };
    expect(sbx.logs.find((e) => e.event === 'request' && e.status === 202)).toMatchObject({ contaBancaria: keyBank, pixReplaced: true });
    await waitFor(() => listener.deliveries.length === 1);
    expect(JSON.parse(listener.deliveries[0]!.body).contaBancaria).toEqual(keyBank);
  });

  it.each([
    ['linked to another CPF', 'outra.pessoa@example.com', 'SVC_B00001'],
    ['linked to another worker with a proposal', 'ana.lima@example.com', 'SVC_B00001'],
    ['not in the catalogue at all', 'ninguem@example.com', 'SVC_B00002'],
  ])('422 for a key %s', async (_name, chavePix, code) => {
    const sbx = await sandbox();
    const res = await submit(sbx, validSubmission('PROP-1001', { chavePix }));
    expect(res.status).toBe(422);
    expect(res.json.erros).toEqual([{ codigo: code, msg: expect.stringMatching(/^contaBancaria\.chavePix: .*não .*vinculada/) }]);
    expect(sbx.contracts()).toHaveLength(0);
  });
});

describe('sandbox: limits and chaos', () => {
  it('429 with Retry-After past --rate-limit', async () => {
    const sbx = await sandbox({ rateLimit: 2 });
    // Sent together so a slow machine cannot refill the bucket between them.
    const answers = await Promise.all(['PROP-1001', 'PROP-1003', 'PROP-2001'].map((id) => submit(sbx, validSubmission(id))));
    expect(answers.map((a) => a.status).sort()).toEqual([202, 202, 429]);
    const limited = answers.find((a) => a.status === 429)!;
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.json.erros[0].codigo).toBe('SVC_R00429');
  });

  it('500 {code, message} for the share of requests given by failRate', async () => {
    const rolls = [0.9, 0.1, 0.6, 0.2];
    const sbx = await sandbox({ failRate: 0.5, random: () => rolls.shift() ?? 0.99 });
    const statuses = [];
    for (const id of ['PROP-1001', 'PROP-1003', 'PROP-2001', 'PROP-2002']) statuses.push((await submit(sbx, validSubmission(id))).status);
    expect(statuses).toEqual([202, 500, 202, 500]);
    const res = await submit(await sandbox({ failRate: 1 }), validSubmission());
    expect(res.status).toBe(500);
    expect(res.json).toEqual({ code: 500, message: expect.stringContaining('--fail-rate') });
  });

  it('latency delays every answer: the answer waits for the latency to pass', async () => {
    const asked: number[] = [];
    let pass: () => void = () => {};
    const sbx = await sandbox({ latencyMs: 150, sleep: (ms) => new Promise<void>((resolve) => { asked.push(ms); pass = resolve; }) });
    let answered = false;
    const answer = submit(sbx, validSubmission()).then((res) => { answered = true; return res; });
    await waitFor(() => asked.length === 1);
    expect(asked).toEqual([150]);
    expect(answered).toBe(false);
    pass();
    expect((await answer).status).toBe(202);
  });
});

describe('sandbox: start and stop', () => {
  it('a port in use is an EconsigError with exit 2 naming the port', async () => {
    const first = await sandbox();
    const error = await startSandbox({ port: first.port }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EconsigError);
    expect((error as EconsigError).exitCode).toBe(2);
    expect((error as EconsigError).message).toContain(`127.0.0.1:${first.port}: the port is already in use`);
  });

  it('close() reports the results not delivered yet and stops answering', async () => {
    const listener = await startListener();
    running.push(listener);
    const sbx = await sandbox({ delayMs: 10_000, webhookUrl: listener.url });
    expect((await submit(sbx, validSubmission('PROP-1001'))).status).toBe(202);
    expect((await submit(sbx, validSubmission('PROP-1003'))).status).toBe(202);
    const summary = await sbx.close();
    expect(summary.pendingWebhooks).toBe(2);
    expect(sbx.contracts().map((c) => c.webhook)).toEqual(['cancelled', 'cancelled']);
    await expect(submit(sbx, validSubmission('PROP-2001'))).rejects.toThrow();
    expect(listener.deliveries).toHaveLength(0);
  });

  it('a catalogue passed in memory replaces the bundled one', async () => {
    const sbx = await sandbox({
      catalogue: {
        workers: [{ cpf: '39053344705', name: 'Ana' }],
        proposals: [{ idProposta: 'X-1', workerCpf: '39053344705', outcome: 'approved' }],
        pixKeys: [],
      },
    });
    expect((await submit(sbx, validSubmission('X-1'))).status).toBe(202);
    expect((await submit(sbx, validSubmission('PROP-1001'))).status).toBe(404);
  });
});
