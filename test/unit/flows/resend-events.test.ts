import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resendDeliveries, selectDeliveries } from '../../../src/flows/resend-events.js';
import { SqliteStore } from '../../../src/record/sqlite.js';
import { deliveryOf } from '../record/contract.js';

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
let home: string;
let store: SqliteStore;
beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'econsig-resend-'));
  store = await SqliteStore.open(home);
});
afterEach(async () => {
  await store.close();
  rmSync(home, { recursive: true, force: true });
});

describe('resendDeliveries', () => {
  it('sends every delivery selected, oldest first, page after page, each signed afresh with its own webhook-id; a dropped body is not sent', async () => {
    for (let i = 0; i < 7; i++) {
      await store.recordDelivery(deliveryOf({ receivedAt: `2026-01-01T00:00:0${i}.000Z`, webhookId: i === 3 ? null : `w${i}`, bodyHash: `b${i}`, idContrato: `C-${i}`, payload: `{"n":${i}}` }));
    }
    // C-0 and C-1's bodies are past the retention.
    expect(await store.dropBodies('2026-01-01T00:00:01.500Z', '2026-02-01T00:00:00.000Z')).toBe(2);
    const got: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
    const server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (c: string) => (body += c));
      req.on('end', () => {
        got.push({ headers: req.headers, body });
        res.writeHead(JSON.parse(body).n === 5 ? 503 : 200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const selected = await selectDeliveries(store, { query: { since: '2026-01-01T00:00:01.000Z' } }, store.location, 2);
      expect(selected).toMatchObject({ count: 6, atLeast: false });
      const to = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      const results = await resendDeliveries(selected.pages(), { to, secret, concurrency: 3 });
      expect(results.map((r) => [r.idContrato, r.httpStatus, r.ok])).toEqual([
        ['C-1', null, false],
        ['C-2', 200, true],
        ['C-3', 200, true],
        ['C-4', 200, true],
        ['C-5', 503, false],
        ['C-6', 200, true],
      ]);
      const webhook = new Webhook(secret);
      for (const r of got) expect(webhook.verify(r.body, r.headers as Record<string, string>)).toHaveProperty('n');
      const ids = Object.fromEntries(got.map((r) => [JSON.parse(r.body).n as number, r.headers['webhook-id']]));
      expect(ids[2]).toBe('w2');
      expect(got).toHaveLength(5);
      expect(results[0]!.payloadDroppedAt).toBe('2026-02-01T00:00:00.000Z');
      expect(ids[3]).toBe(`msg_econsig_${results[2]!.id}`);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('an id named twice is selected once', async () => {
    await store.recordDelivery(deliveryOf({ receivedAt: '2026-01-01T00:00:00.000Z', webhookId: 'w0', bodyHash: 'b0', idContrato: 'C-0', payload: '{"n":0}' }));
    const [only] = (await store.events({ limit: 1 })).events;
    const selected = await selectDeliveries(store, { ids: [String(only!.id), String(only!.id)] }, store.location);
    const pages: Array<readonly unknown[]> = [];
    for await (const page of selected.pages()) pages.push(page);
    expect(selected.count).toBe(1);
    expect(pages.flat()).toHaveLength(1);
  });

  it('an id the store does not have is an error naming it (exit 4)', async () => {
    await expect(selectDeliveries(store, { ids: ['nope'] }, store.location)).rejects.toMatchObject({ exitCode: 4, message: expect.stringContaining('nope') });
  });
});
