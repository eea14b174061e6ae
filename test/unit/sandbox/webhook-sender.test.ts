import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookSender, type ResultPayload, type WebhookSender } from '../../../src/sandbox/webhook-sender.js';
import { waitFor } from '../../wait-for.js';

const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function payload(i: number): ResultPayload {
  return {
    evento: 'RESULTADO_PROPOSTA',
    idContrato: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    idProposta: `PROP-${i}`,
    status: 'APROVADO',
    motivo: null,
    dataHora: new Date(0).toISOString(),
    contaBancaria: {},
  };
}

/** A listener that holds every request open until released. */
async function holdingListener() {
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    req.resume();
    held.push(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`, held };
}

function sender(url: string, log: unknown[] = []): WebhookSender {
  const s = createWebhookSender({
    url,
    secret: undefined,
    retry: { tries: 1, baseDelayMs: 10 },
    timeoutMs: 5000,
    random: () => 0.5,
    now: () => new Date(),
    log: (e) => log.push(e),
    onState: () => undefined,
  });
  cleanups.push(() => s.close());
  return s;
}

describe('createWebhookSender', () => {
  it('many deliveries in flight at once print no MaxListenersExceededWarning', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error): void => void warnings.push(w);
    process.on('warning', onWarning);
    cleanups.push(() => void process.off('warning', onWarning));
    const listener = await holdingListener();
    const log: unknown[] = [];
    const s = sender(listener.url, log);
    for (let i = 1; i <= 25; i++) s.deliver(payload(i));
    await waitFor(() => listener.held.length === 25, 5000);
    for (const res of listener.held) res.writeHead(200).end();
    await waitFor(() => log.length === 25, 5000);
    // A listener warning is emitted on the process.nextTick after the listener that trips it
    // is added, when a request is sent; all 25 were answered and logged since, many ticks later.
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  it('close() cuts a delivery in flight and logs nothing for it', async () => {
    const listener = await holdingListener();
    const log: unknown[] = [];
    const s = sender(listener.url, log);
    s.deliver(payload(1));
    await waitFor(() => listener.held.length === 1, 5000);
    const started = performance.now();
    await s.close();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(log).toEqual([]);
  });
});
