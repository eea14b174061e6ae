import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTRACTS_PATH, startSandbox, type Sandbox, type SandboxLogEntry, type SandboxOptions, type WebhookLogEntry } from '../../../src/sandbox/server.js';
import { freePort, send, startListener, validSubmission } from './helpers.js';
import { waitFor } from '../../wait-for.js';

const running: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function sandbox(options: SandboxOptions): Promise<Sandbox & { logs: SandboxLogEntry[] }> {
  const logs: SandboxLogEntry[] = [];
  const sbx = await startSandbox({ port: 0, token: 't', delayMs: 30, webhookRetry: { tries: 5, baseDelayMs: 20 }, onLog: (e) => logs.push(e), ...options });
  running.push(sbx);
  return Object.assign(sbx, { logs });
}
const attempts = (logs: SandboxLogEntry[]) => logs.filter((e): e is WebhookLogEntry => e.event === 'webhook');

async function submit(sbx: Sandbox, id: string): Promise<string> {
  const res = await send(`${sbx.url}${CONTRACTS_PATH}`, {
    headers: { authorization: `Bearer ${sbx.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(validSubmission(id)),
  });
  expect(res.status).toBe(202);
  return res.json.idContrato as string;
}

describe('sandbox webhooks', () => {
  it('sends the result after the delay, signed per Standard Webhooks (verified by the reference library)', async () => {
    const listener = await startListener();
    running.push(listener);
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const sbx = await sandbox({ webhookUrl: listener.url, secret, delayMs: 80 });
    const started = performance.now();
    const id = await submit(sbx, 'PROP-1001');
    await waitFor(() => listener.deliveries.length === 1);
    expect(performance.now() - started).toBeGreaterThanOrEqual(75);
    const { headers, body } = listener.deliveries[0]!;
    const payload = new Webhook(secret).verify(body, {
      'webhook-id': String(headers['webhook-id']),
      'webhook-timestamp': String(headers['webhook-timestamp']),
      'webhook-signature': String(headers['webhook-signature']),
    });
    expect(payload).toMatchObject({ evento: 'RESULTADO_PROPOSTA', idContrato: id, idProposta: 'PROP-1001', status: 'APROVADO', motivo: null });
    expect(new Date((payload as { dataHora: string }).dataHora).toISOString()).toBe((payload as { dataHora: string }).dataHora);
    // A different secret must not verify: the check can fail.
    expect(() =>
      new Webhook('whsec_c2VjcmV0LW5vdC10aGUtc2FtZQ==').verify(body, {
        'webhook-id': String(headers['webhook-id']),
        'webhook-timestamp': String(headers['webhook-timestamp']),
        'webhook-signature': String(headers['webhook-signature']),
      }),
    ).toThrow();
    await waitFor(() => sbx.contracts()[0]?.webhook === 'delivered');
    expect(sbx.contracts()[0]!.webhookAttempts).toBe(1);
  });

  it('no signature header without a secret; a denied proposal says REPROVADO with its reason', async () => {
    const listener = await startListener();
    running.push(listener);
    const sbx = await sandbox({ webhookUrl: listener.url });
    const id = await submit(sbx, 'PROP-1002');
    await waitFor(() => listener.deliveries.length === 1);
    const { headers, body } = listener.deliveries[0]!;
    expect(headers['webhook-signature']).toBeUndefined();
    expect(headers['webhook-id']).toBe(`msg_${id.replace(/-/g, '')}`);
    expect(JSON.parse(body)).toMatchObject({ idContrato: id, status: 'REPROVADO', motivo: 'Margem consignável insuficiente' });
  });

  it('retries a listener that answers 503 twice, with the same webhook-id, each attempt logged', async () => {
    const listener = await startListener((n) => (n <= 2 ? 503 : 200));
    running.push(listener);
    const sbx = await sandbox({ webhookUrl: listener.url, random: () => 0.5 });
    await submit(sbx, 'PROP-1003');
    await waitFor(() => sbx.contracts()[0]?.webhook === 'delivered');
    expect(listener.deliveries.map((d) => d.status)).toEqual([503, 503, 200]);
    expect(new Set(listener.deliveries.map((d) => d.headers['webhook-id'])).size).toBe(1);
    const log = attempts(sbx.logs);
    expect(log.map((e) => [e.attempt, e.httpStatus, e.delivered, e.nextRetryMs])).toEqual([
      [1, 503, false, 15],
      [2, 503, false, 30],
      [3, 200, true, undefined],
    ]);
  });

  it('retries while the listener is down at first, then delivers once it is up', async () => {
    const port = await freePort();
    const sbx = await sandbox({ webhookUrl: `http://127.0.0.1:${port}/webhook`, webhookRetry: { tries: 8, baseDelayMs: 40 } });
    const id = await submit(sbx, 'PROP-1001');
    await waitFor(() => attempts(sbx.logs).length >= 2);
    const listener = await startListener(() => 200, port);
    running.push(listener);
    await waitFor(() => sbx.contracts()[0]?.webhook === 'delivered', 5000);
    expect(listener.deliveries).toHaveLength(1);
    const log = attempts(sbx.logs);
    expect(log.length).toBeGreaterThanOrEqual(3);
    expect(log.slice(0, -1).every((e) => e.error === 'ECONNREFUSED' && !e.delivered)).toBe(true);
    expect(log.at(-1)).toMatchObject({ delivered: true, httpStatus: 200, attempt: log.length });
    expect(JSON.parse(listener.deliveries[0]!.body).idContrato).toBe(id);
  });

  it('gives up after the bounded number of tries; the worker was freed when the delay ended', async () => {
    const listener = await startListener(() => 500);
    running.push(listener);
    const sbx = await sandbox({ webhookUrl: listener.url, webhookRetry: { tries: 3, baseDelayMs: 10 } });
    await submit(sbx, 'PROP-1001');
    await waitFor(() => sbx.contracts()[0]?.webhook === 'failed');
    expect(listener.deliveries).toHaveLength(3);
    expect(attempts(sbx.logs).at(-1)).toMatchObject({ attempt: 3, tries: 3, gaveUp: true, delivered: false });
    expect(sbx.contracts()[0]!.finishedAt).not.toBeNull();
    await submit(sbx, 'PROP-1004');
  });

  it('close() during retries cancels them and counts the result as pending', async () => {
    const listener = await startListener(() => 503);
    running.push(listener);
    // No jitter: every first retry comes exactly 200 ms after its first try.
    const retry = { webhookRetry: { tries: 8, baseDelayMs: 200 }, random: () => 1 };
    const closed = await sandbox({ webhookUrl: listener.url, ...retry });
    await submit(closed, 'PROP-1001');
    await waitFor(() => attempts(closed.logs).length === 1);
    expect(attempts(closed.logs)[0]).toMatchObject({ attempt: 1, nextRetryMs: 200 });
    expect(await closed.close()).toMatchObject({ pendingWebhooks: 1 });
    // A second sandbox, started later with the same retry timing, in the same process: its
    // retry is due after the closed one's would have been, so once it has come, a retry
    // of the closed sandbox would have come before it.
    const later = await sandbox({ webhookUrl: listener.url, ...retry });
    await submit(later, 'PROP-1004');
    await waitFor(() => attempts(later.logs).length === 2);
    const ids = listener.deliveries.map((d) => d.headers['webhook-id']);
    const closedId = attempts(closed.logs)[0]!.webhookId;
    expect(ids.filter((id) => id === closedId)).toHaveLength(1);
    expect(attempts(closed.logs)).toHaveLength(1);
    expect(ids.filter((id) => id !== closedId)).toHaveLength(2);
  });
});
