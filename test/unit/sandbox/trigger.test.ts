import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTRACTS_PATH, startSandbox, type Sandbox, type SandboxLogEntry, type SandboxOptions, type WebhookLogEntry } from '../../../src/sandbox/server.js';
import { TRIGGER_PATH, setPath, triggerRequestSchema } from '../../../src/sandbox/trigger.js';
import { send, startListener, validSubmission } from './helpers.js';
import { waitFor } from '../../wait-for.js';

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const running: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function sandbox(options: SandboxOptions): Promise<Sandbox & { logs: SandboxLogEntry[] }> {
  const logs: SandboxLogEntry[] = [];
  const sbx = await startSandbox({ port: 0, token: 't', delayMs: 10, secret, webhookRetry: { tries: 3, baseDelayMs: 10 }, onLog: (e) => logs.push(e), ...options });
  running.push(sbx);
  return Object.assign(sbx, { logs });
}

const trigger = (sbx: Sandbox, body: unknown, token = sbx.token) =>
  send(`${sbx.url}${TRIGGER_PATH}`, { headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('sandbox trigger (POST /sandbox/v1/trigger)', () => {
  it('sends a contract\'s result now with the fields set, signed, n times with one webhook-id, answering the first attempt of each', async () => {
    const listener = await startListener();
    running.push(listener);
    const sbx = await sandbox({ webhookUrl: listener.url, delayMs: 60_000 });
    const created = await send(`${sbx.url}${CONTRACTS_PATH}`, { headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: JSON.stringify(validSubmission('PROP-1001')) });
    const idContrato = created.json.idContrato as string;
    const res = await trigger(sbx, { outcome: 'denied', idContrato, reason: 'Margem', set: [{ path: 'contaBancaria.agencia', value: '9999' }, { path: 'extra', value: [1, 2] }], times: 3 });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ idContrato, idProposta: 'PROP-1001', attempts: [{ httpStatus: 200, delivered: true }, { httpStatus: 200 }, { httpStatus: 200 }] });
    expect(listener.deliveries).toHaveLength(3);
    const ids = new Set(listener.deliveries.map((d) => d.headers['webhook-id']));
    expect([...ids]).toEqual([res.json.webhookId]);
    const payload = new Webhook(secret).verify(listener.deliveries[0]!.body, listener.deliveries[0]!.headers as Record<string, string>);
    expect(payload).toMatchObject({ idContrato, status: 'REPROVADO', motivo: 'Margem', contaBancaria: { agencia: '9999' }, extra: [1, 2] });
  });

  it('a receiver that answers 500 first: answered at once with that status, the sender goes on retrying', async () => {
    const listener = await startListener((n) => (n === 1 ? 500 : 200));
    running.push(listener);
    const sbx = await sandbox({ webhookUrl: listener.url });
    const res = await trigger(sbx, { outcome: 'cancelled', idProposta: 'PROP-1003', times: 2 });
    expect(res.json.attempts).toEqual([{ httpStatus: 500, error: null, delivered: false }]);
    // The sandbox logs an attempt once its answer is in, after the receiver has the delivery: wait for both.
    const attempts = (): boolean[] => sbx.logs.filter((e): e is WebhookLogEntry => e.event === 'webhook').map((e) => e.delivered);
    await waitFor(() => listener.deliveries.length === 2 && attempts().length === 2);
    expect(JSON.parse(listener.deliveries[1]!.body)).toMatchObject({ idProposta: 'PROP-1003', status: 'CANCELADO' });
    expect(attempts()).toEqual([false, true]);
  });

  it('refuses a wrong token (401), a contract it did not issue (404), both or neither of contract and proposal (400), a path into a prototype (400)', async () => {
    const sbx = await sandbox({ webhookUrl: 'http://127.0.0.1:9/none' });
    expect((await trigger(sbx, { outcome: 'approved', idProposta: 'P' }, 'wrong')).status).toBe(401);
    expect((await trigger(sbx, { outcome: 'approved', idContrato: 'C-NEVER' })).status).toBe(404);
    expect((await trigger(sbx, { outcome: 'approved' })).status).toBe(400);
    expect((await trigger(sbx, { outcome: 'approved', idProposta: 'P', set: [{ path: 'a.__proto__.polluted', value: 1 }] })).status).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('setPath creates the objects on its way; the schema takes strings and JSON values alike', () => {
    const target: Record<string, unknown> = { a: 'x' };
    setPath(target, 'a.b.c', 1);
    setPath(target, 'motivo', null);
    expect(target).toEqual({ a: { b: { c: 1 } }, motivo: null });
    expect(triggerRequestSchema.safeParse({ outcome: 'denied', idContrato: 'C', set: [{ path: 'x', value: { y: [1] } }] }).success).toBe(true);
  });
});

describe('catalogue scenarios a receiver must survive', () => {
  const submit = async (sbx: Sandbox, idProposta: string): Promise<string> =>
    (await send(`${sbx.url}${CONTRACTS_PATH}`, { headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: JSON.stringify(validSubmission(idProposta)) })).json.idContrato as string;

  it('twice: the same webhook-id and body again once the first was answered; out-of-order: approved, then denied, for one contract', async () => {
    const listener = await startListener();
    running.push(listener);
    const sbx = await sandbox({ webhookUrl: listener.url });
    const twice = await submit(sbx, 'PROP-3001');
    await waitFor(() => listener.deliveries.length === 2);
    expect(listener.deliveries.map((d) => JSON.parse(d.body).idContrato)).toEqual([twice, twice]);
    expect(listener.deliveries[1]!.headers['webhook-id']).toBe(listener.deliveries[0]!.headers['webhook-id']);
    expect(listener.deliveries[1]!.body).toBe(listener.deliveries[0]!.body);
    const reordered = await submit(sbx, 'PROP-3002');
    await waitFor(() => listener.deliveries.length === 4);
    const [approved, denied] = listener.deliveries.slice(2).map((d) => ({ id: d.headers['webhook-id'], ...(JSON.parse(d.body) as { idContrato: string; status: string; motivo: string | null }) }));
    expect(approved).toMatchObject({ idContrato: reordered, status: 'APROVADO', motivo: null });
    expect(denied).toMatchObject({ idContrato: reordered, status: 'REPROVADO', motivo: 'Margem consignável insuficiente' });
    expect(denied!.id).not.toBe(approved!.id);
  });

  it('late: the result comes lateSeconds after the delay', async () => {
    const listener = await startListener();
    running.push(listener);
    const catalogue = {
      workers: [{ cpf: '52998224725', name: 'Maria' }],
      proposals: [{ idProposta: 'PROP-L', workerCpf: '52998224725', outcome: 'approved' as const, scenario: 'late' as const, lateSeconds: 0.3 }],
      pixKeys: [],
    };
    const sbx = await sandbox({ webhookUrl: listener.url, catalogue });
    await submit(sbx, 'PROP-L');
    // Finished (the delay is over, the worker free again), and its result not yet sent.
    await waitFor(() => sbx.contracts()[0]?.finishedAt !== null);
    expect(listener.deliveries).toHaveLength(0);
    await waitFor(() => listener.deliveries.length === 1);
  });
});
