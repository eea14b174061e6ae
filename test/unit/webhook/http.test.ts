import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { PassThrough } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { hostForUrl as fromServer } from '../../../src/webhook/server.js';
import { cannotBind, hostForUrl, MAX_BODY_BYTES, readBody } from '../../../src/webhook/http.js';

describe('hostForUrl', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['localhost', 'localhost'],
    ['::1', '[::1]'],
    ['fe80::1%lo0', '[fe80::1%lo0]'],
    ['[::1]', '[::1]'],
  ])('%s → %s', (host, want) => {
    expect(hostForUrl(host)).toBe(want);
  });
  it('is the one exported by the listener too', () => {
    expect(fromServer).toBe(hostForUrl);
  });
});

describe('readBody', () => {
  let server: Server | undefined;
  afterEach(async () => {
    if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
  });

  /** A server answering with what readBody gave: the length, or 413. */
  async function echo(limit?: number): Promise<string> {
    server = createServer((req, res) => {
      void readBody(req, limit).then((body) => {
        if (body === null) res.writeHead(413, { connection: 'close' }).end();
        else res.writeHead(200).end(String(body.length));
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  }

  function post(url: string, chunks: Buffer[], headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(url, { method: 'POST', headers, agent: false }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : reject(e)));
      for (const c of chunks) req.write(c);
      req.end();
    });
  }

  it.each([
    ['empty', [], 200, '0'],
    ['one chunk', [Buffer.alloc(10)], 200, '10'],
    ['several chunks up to the limit', [Buffer.alloc(60), Buffer.alloc(40)], 200, '100'],
    ['one byte past the limit, chunked', [Buffer.alloc(60), Buffer.alloc(41)], 413, ''],
  ])('%s', async (_name, chunks, status, text) => {
    const url = await echo(100);
    expect(await post(url, chunks as Buffer[])).toEqual({ status, text });
  });

  it('a declared Content-Length over the limit is refused without reading', async () => {
    const req = Object.assign(new PassThrough(), { headers: { 'content-length': '101' } });
    req.write(Buffer.alloc(10));
    expect(await readBody(req as unknown as IncomingMessage, 100)).toBeNull();
    expect(req.readableLength).toBe(10);
    const small = Object.assign(new PassThrough(), { headers: { 'content-length': '100' } });
    small.end(Buffer.alloc(100));
    expect((await readBody(small as unknown as IncomingMessage, 100))?.length).toBe(100);
  });

  it('defaults to 1 MiB', async () => {
    const url = await echo();
    expect(MAX_BODY_BYTES).toBe(1024 * 1024);
    expect((await post(url, [Buffer.alloc(MAX_BODY_BYTES)])).status).toBe(200);
    expect((await post(url, [Buffer.alloc(MAX_BODY_BYTES + 1)])).status).toBe(413);
  });
});

describe('cannotBind', () => {
  it.each([
    ['EADDRINUSE', /the port is already in use \(EADDRINUSE\)/, /Something else holds it/],
    ['EACCES', /no permission/, /below 1024/],
    ['EADDRNOTAVAIL', /not one of this machine/, /--host must be an address/],
    [undefined, /cannot be bound\.$/, /^Use another --port/],
  ])('%s', (code, message, hint) => {
    const error = cannotBind('127.0.0.1', 4020, code, undefined, 'port');
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(/^Cannot listen on 127\.0\.0\.1:4020: /);
    expect(error.message).toMatch(message);
    expect(error.hint).toMatch(hint);
  });

  it('brackets an IPv6 host', () => {
    expect(cannotBind('::1', 1, 'EADDRINUSE', undefined, 'port').message).toContain('[::1]:1');
  });
});
