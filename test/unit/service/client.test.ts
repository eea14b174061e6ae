import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  assertSafeTransport,
  contractsUrl,
  createServiceClient,
  describeRequest,
  transportErrorOf,
  type RetryInfo,
  type ServiceClient,
  type ServiceClientOptions,
} from '../../../src/service/client.js';
import {
  AbortedError,
  ConnectionError,
  InsecureTransportError,
  InvalidBaseUrlError,
  InvalidTokenError,
  ProposalNotFoundError,
  RateLimitedError,
  ServerError,
  ServiceError,
  TimeoutError,
  TransportError,
  UndocumentedAnswerError,
  UnauthorizedError,
  ValidationRejectedError,
} from '../../../src/service/errors.js';

const TOKEN = 'tok_test_A1b2C3d4E5f6G7h8I9j0';
const ID = '0b6c3e0e-7d2a-4a8f-9c1e-2f3a4b5c6d7e';
const BODY = { idProposta: 'PROP-2001', pessoa: { email: 'ana@example.com' }, contaBancaria: { chavePix: 'x' } };

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

interface Stub {
  base: string;
  seen: Seen[];
  connections: number;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, seen: Seen, n: number) => void;

const servers: Server[] = [];
const clients: ServiceClient[] = [];

/** A node:http stub on 127.0.0.1 port 0 that records each request after reading its body. */
async function stub(handler: Handler): Promise<Stub> {
  const seen: Seen[] = [];
  const stubState = { connections: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() };
      seen.push(entry);
      handler(req, res, entry, seen.length);
    });
  });
  server.on('connection', () => {
    stubState.connections += 1;
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    seen,
    get connections() {
      return stubState.connections;
    },
    close: () => closeServer(server),
  };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

const accept: Handler = (_req, res) => json(res, 202, { idContrato: ID, erros: [] }, { 'x-request-id': 'req-42' });

function client(options: Partial<ServiceClientOptions> & { baseUrl: string }): ServiceClient {
  const c = createServiceClient({ token: TOKEN, requestTimeoutMs: 2_000, sleep: async () => {}, ...options });
  clients.push(c);
  return c;
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

/** Every string an error could show anywhere: message, stack, fields, causes. */
function everything(error: unknown): string {
  const parts: string[] = [];
  let e: unknown = error;
  for (let depth = 0; e instanceof Error && depth < 5; depth += 1) {
    parts.push(e.message, e.stack ?? '', JSON.stringify(e));
    e = e.cause;
  }
  return parts.join('\n');
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => closeServer(s)));
});

describe('submit: 202', () => {
  it('sends the documented request and returns idContrato', async () => {
    const s = await stub(accept);
    const c = client({ baseUrl: `${s.base}/gw/` });
    const result = await c.submit(BODY);
    expect(result).toEqual({ status: 202, idContrato: ID, erros: [], requestId: 'req-42', attempts: 1 });
    expect(s.seen).toHaveLength(1);
    const [req] = s.seen;
    expect(req?.method).toBe('POST');
    expect(req?.url).toBe('/gw/api/v1/e-consignado/contratos');
    expect(req?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.headers.accept).toBe('application/json');
    expect(req?.headers['user-agent']).toMatch(/^econsig\/\d+\.\d+\.\d+/);
    expect(JSON.parse(req?.body ?? '')).toEqual(BODY);
  });
});

describe('submit: answer mapping', () => {
  const rows: Array<[string, number, string, Record<string, string>, new (...a: never[]) => ServiceError, unknown]> = [
    ['401', 401, '{"code":900901,"message":"Invalid Credentials"}', {}, UnauthorizedError, 900901],
    ['404 SVC_P00003', 404, '{"erros":[{"codigo":"SVC_P00003","msg":"Proposta não encontrada"}]}', {}, ProposalNotFoundError, 'SVC_P00003'],
    ['422', 422, '{"erros":[{"codigo":"SVC_V00042","msg":"CEP inválido"}]}', {}, ValidationRejectedError, 'SVC_V00042'],
    ['429 with Retry-After past the cap', 429, '', { 'retry-after': '3600' }, RateLimitedError, undefined],
    ['500', 500, '{"code":500,"message":"Internal Server Error"}', {}, ServerError, 500],
    ['502 HTML', 502, '<html><body>Bad Gateway</body></html>', {}, ServerError, undefined],
    ['404 HTML', 404, '<html><body>Not Found</body></html>', {}, UndocumentedAnswerError, undefined],
    ['202 empty body', 202, '', {}, UndocumentedAnswerError, undefined],
    ['202 without UUID', 202, '{"idContrato":"abc","erros":[]}', {}, UndocumentedAnswerError, undefined],
    ['200', 200, `{"idContrato":"${ID}","erros":[]}`, {}, UndocumentedAnswerError, undefined],
  ];
  it.each(rows)('%s', async (_name, status, body, headers, cls, code) => {
    const s = await stub((_req, res) => {
      res.writeHead(status, { 'x-request-id': 'req-7', ...headers });
      res.end(body);
    });
    const error = await failure(client({ baseUrl: s.base }).submit(BODY));
    expect(error).toBeInstanceOf(cls);
    const se = error as ServiceError;
    expect(se.status).toBe(status);
    expect(se.code).toBe(code);
    expect(se.requestId).toBe('req-7');
    expect(se.attempts).toBe(1);
    // None of these is retried.
    expect(s.seen).toHaveLength(1);
  });

  it('an answer over 1 MiB is undocumented, not buffered whole', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(202, { 'content-type': 'application/json' });
      res.end(`{"idContrato":"${'x'.repeat(2 * 1024 * 1024)}"}`);
    });
    const error = await failure(client({ baseUrl: s.base }).submit(BODY));
    expect(error).toBeInstanceOf(UndocumentedAnswerError);
    expect((error as UndocumentedAnswerError).bodySnippet.length).toBeLessThanOrEqual(201);
  });
});

describe('submit: retries', () => {
  it('429 then 202: waits Retry-After, then succeeds', async () => {
    const s = await stub((req, res, seen, n) => (n === 1 ? json(res, 429, '', { 'retry-after': '2' }) : accept(req, res, seen, n)));
    const sleeps: number[] = [];
    const retries: RetryInfo[] = [];
    const c = client({
      baseUrl: s.base,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      onRetry: (info) => retries.push(info),
    });
    const result = await c.submit(BODY);
    expect(result.attempts).toBe(2);
    expect(result.idContrato).toBe(ID);
    expect(s.seen).toHaveLength(2);
    expect(sleeps).toEqual([2000]);
    expect(retries.map((r) => [r.attempt, r.delayMs, r.reason, r.maxAttempts])).toEqual([[1, 2000, 'rate_limited', 5]]);
    expect(retries[0]?.error).toBeInstanceOf(RateLimitedError);
  });

  it('429 without Retry-After uses jittered backoff and gives up after maxRateLimitAttempts', async () => {
    const s = await stub((_req, res) => json(res, 429, ''));
    const sleeps: number[] = [];
    const c = client({
      baseUrl: s.base,
      random: () => 0.5,
      retry: { maxRateLimitAttempts: 3 },
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    const error = await failure(c.submit(BODY));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).attempts).toBe(3);
    expect(s.seen).toHaveLength(3);
    expect(sleeps).toEqual([250, 500]);
  });

  it('a 429 pause applies to the next submission of the same client', async () => {
    const s = await stub((req, res, seen, n) => (n === 1 ? json(res, 429, '', { 'retry-after': '2' }) : accept(req, res, seen, n)));
    let t = 1_000_000;
    const sleeps: number[] = [];
    const c = client({
      baseUrl: s.base,
      now: () => t,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    await c.submit(BODY);
    await c.submit(BODY); // the clock has not moved: still inside the server's 2 s
    t += 2_000;
    await c.submit(BODY);
    expect(sleeps).toEqual([2000, 2000]);
    expect(s.seen).toHaveLength(4);
  });

  it('500 is never retried', async () => {
    const s = await stub((_req, res) => json(res, 500, { code: 500, message: 'boom' }));
    const retries: RetryInfo[] = [];
    const error = await failure(client({ baseUrl: s.base, onRetry: (i) => retries.push(i) }).submit(BODY));
    expect(error).toBeInstanceOf(ServerError);
    expect(s.seen).toHaveLength(1);
    expect(retries).toHaveLength(0);
  });

  it('connection refused: retried, then ConnectionError(sent=false)', async () => {
    const s = await stub(accept);
    await s.close();
    const retries: RetryInfo[] = [];
    const sleeps: number[] = [];
    const c = client({
      baseUrl: s.base,
      random: () => 0.5,
      onRetry: (i) => retries.push(i),
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    const error = await failure(c.submit(BODY));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).sent).toBe(false);
    expect((error as ConnectionError).code).toBe('ECONNREFUSED');
    expect((error as ConnectionError).attempts).toBe(3);
    expect(retries.map((r) => r.reason)).toEqual(['not_sent', 'not_sent']);
    expect(sleeps).toEqual([250, 500]);
  });
});

describe('submit: timeouts and broken connections', () => {
  it('a server that never answers: TimeoutError(headers, sent) within the limit, not retried', async () => {
    const s = await stub(() => {
      /* never answers */
    });
    const started = performance.now();
    const error = await failure(client({ baseUrl: s.base, requestTimeoutMs: 300 }).submit(BODY));
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).phase).toBe('headers');
    expect((error as TimeoutError).sent).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(2_000);
    expect(s.seen).toHaveLength(1);
  });

  it('a body that never completes: TimeoutError(body)', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(202, { 'content-type': 'application/json' });
      res.write('{"idContrato":');
    });
    const started = performance.now();
    const error = await failure(client({ baseUrl: s.base, requestTimeoutMs: 300 }).submit(BODY));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).phase).toBe('body');
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('a slow drip cannot stretch the body past the limit', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(202, { 'content-type': 'application/json' });
      const drip = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(drip));
    });
    const started = performance.now();
    const error = await failure(client({ baseUrl: s.base, requestTimeoutMs: 400 }).submit(BODY));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).phase).toBe('body');
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('a reset after the request arrived: ConnectionError(sent=true), not retried', async () => {
    const s = await stub((req) => req.socket.destroy());
    const error = await failure(client({ baseUrl: s.base }).submit(BODY));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).sent).toBe(true);
    expect(s.seen).toHaveLength(1);
  });

  it('abort in flight: AbortedError(sent=true); abort before: nothing sent', async () => {
    const ac = new AbortController();
    // Aborted once the whole request has arrived and is waiting for its answer: in flight.
    const s = await stub(() => ac.abort(new Error('stop')));
    const c = client({ baseUrl: s.base });
    const inFlight = await failure(c.submit(BODY, { signal: ac.signal }));
    expect(inFlight).toBeInstanceOf(AbortedError);
    expect((inFlight as AbortedError).sent).toBe(true);
    const before = await failure(c.submit(BODY, { signal: AbortSignal.abort() }));
    expect(before).toBeInstanceOf(AbortedError);
    expect((before as AbortedError).sent).toBe(false);
    expect(s.seen).toHaveLength(1);
  });
});

describe('submit: connection reuse', () => {
  it('sequential submissions reuse keep-alive connections', async () => {
    const s = await stub(accept);
    const c = client({ baseUrl: s.base });
    for (let i = 0; i < 10; i += 1) await c.submit(BODY);
    expect(s.seen).toHaveLength(10);
    // undici's Pool frees a connection a tick after the body ends, so the second request
    // opens one more socket; from then on the two are reused.
    expect(s.connections).toBeLessThanOrEqual(2);
  });

  it('a parallel batch uses at most `connections` sockets', async () => {
    const s = await stub(accept);
    const c = client({ baseUrl: s.base, connections: 2 });
    await Promise.all(Array.from({ length: 10 }, () => c.submit(BODY)));
    expect(s.seen).toHaveLength(10);
    expect(s.connections).toBeLessThanOrEqual(2);
  });
});

describe('the token never shows in an error', () => {
  const echo = (status: number, wrap: (auth: string) => string): Handler => (req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end(wrap(req.headers.authorization ?? ''));
  };
  it.each([
    ['401 echo', echo(401, (a) => JSON.stringify({ code: 1, message: `rejected ${a}` }))],
    ['422 echo in msg', echo(422, (a) => JSON.stringify({ erros: [{ codigo: 'SVC_X1', msg: a }] }))],
    ['500 echo', echo(500, (a) => JSON.stringify({ code: 500, message: a }))],
    ['404 HTML echo', echo(404, (a) => `<html><pre>${a}</pre></html>`)],
    ['202 garbage echo', echo(202, (a) => `accepted for ${a}`)],
    ['429 echo', echo(429, (a) => a)],
  ] as const)('%s', async (_name, handler) => {
    const s = await stub(handler);
    const error = await failure(client({ baseUrl: s.base, retry: { maxRateLimitAttempts: 1 } }).submit(BODY));
    expect(error).toBeInstanceOf(ServiceError);
    expect(s.seen[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(everything(error)).not.toContain(TOKEN);
  });

  it('transport errors', async () => {
    const s = await stub(() => {});
    const timeout = await failure(client({ baseUrl: s.base, requestTimeoutMs: 200 }).submit(BODY));
    await s.close();
    const refused = await failure(client({ baseUrl: s.base }).submit(BODY));
    for (const error of [timeout, refused]) {
      expect(error).toBeInstanceOf(TransportError);
      expect(everything(error)).not.toContain(TOKEN);
    }
  });
});

describe('transportErrorOf', () => {
  const ctx = { target: 'https://h', token: TOKEN, connectTimeoutMs: 10, requestTimeoutMs: 20 };
  const err = (code: string) => Object.assign(new Error(`fail ${code}`), { code });
  it.each([
    ['ECONNREFUSED', undefined, ConnectionError, false],
    ['ENOTFOUND', undefined, ConnectionError, false],
    ['EAI_AGAIN', undefined, ConnectionError, false],
    ['CERT_HAS_EXPIRED', undefined, ConnectionError, false],
    ['ECONNRESET', undefined, ConnectionError, true],
    ['UND_ERR_SOCKET', undefined, ConnectionError, true],
    ['EPIPE', undefined, ConnectionError, true],
    ['ETIMEDOUT', undefined, ConnectionError, true],
    ['ECONNREFUSED', 202, ConnectionError, true],
    ['UND_ERR_CONNECT_TIMEOUT', undefined, TimeoutError, false],
    ['UND_ERR_HEADERS_TIMEOUT', undefined, TimeoutError, true],
    ['UND_ERR_BODY_TIMEOUT', 202, TimeoutError, true],
  ] as const)('%s (status %s)', (code, status, cls, sent) => {
    const e = transportErrorOf(err(code), { ...ctx, status });
    expect(e).toBeInstanceOf(cls);
    expect(e.sent).toBe(sent);
  });
});

describe('describeRequest, contractsUrl, assertSafeTransport', () => {
  it('describes the exact request with the token masked', () => {
    const d = describeRequest('https://homolog.example.com/gw', TOKEN, BODY, { userAgent: 'econsig/9.9.9' });
    expect(d).toEqual({
      method: 'POST',
      url: 'https://homolog.example.com/gw/api/v1/e-consignado/contratos',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        authorization: 'Bearer ****I9j0',
        'user-agent': 'econsig/9.9.9',
      },
      body: BODY,
    });
    expect(JSON.stringify(d)).not.toContain(TOKEN);
  });

  it('a short token shows nothing of itself', () => {
    expect(describeRequest('https://h', 'abc123', {}).headers.authorization).toBe('Bearer ****');
  });

  it.each([
    ['https://h', 'https://h/api/v1/e-consignado/contratos'],
    ['https://h/', 'https://h/api/v1/e-consignado/contratos'],
    ['https://h:8443/gw//', 'https://h:8443/gw/api/v1/e-consignado/contratos'],
    ['https://h/a/b?x=1#f', 'https://h/a/b/api/v1/e-consignado/contratos'],
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010/api/v1/e-consignado/contratos'],
  ])('contractsUrl(%s)', (base, expected) => {
    expect(contractsUrl(base)).toBe(expected);
  });

  it.each([
    ['https://homolog.example.com', undefined],
    ['http://127.0.0.1:4010', undefined],
    ['http://127.1.2.3', undefined],
    ['http://127.1', undefined],
    ['http://localhost:4010', undefined],
    ['http://[::1]:4010', undefined],
    ['http://example.com', InsecureTransportError],
    ['http://10.0.0.5:8080', InsecureTransportError],
    ['http://localhost.evil.com', InsecureTransportError],
    ['http://127.0.0.1.nip.io', InsecureTransportError],
    ['http://[::2]', InsecureTransportError],
    ['ftp://example.com', InvalidBaseUrlError],
    ['not a url', InvalidBaseUrlError],
  ] as const)('assertSafeTransport(%s)', (base, cls) => {
    if (cls === undefined) expect(() => assertSafeTransport(base)).not.toThrow();
    else expect(() => assertSafeTransport(base)).toThrow(cls);
  });

  it.each([
    ['empty', ''],
    ['line break', `${TOKEN}\n`],
    ['space inside', 'abc def'],
    ['non-ASCII', 'tokén123'],
  ])('a token that cannot be a header value is refused up front (%s)', (_name, token) => {
    const error = (() => {
      try {
        createServiceClient({ baseUrl: 'https://h', token, requestTimeoutMs: 1000 });
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(InvalidTokenError);
    if (token) expect(error?.message).not.toContain(token.trim());
  });

  it('the client refuses plain http to another host before sending anything', () => {
    expect(() => createServiceClient({ baseUrl: 'http://user:pw@example.com/x', token: TOKEN, requestTimeoutMs: 1000 })).toThrow(
      InsecureTransportError,
    );
    let error: unknown;
    try {
      assertSafeTransport('http://user:pw@example.com/x');
    } catch (caught) {
      error = caught;
    }
    // Asserted after the catch: if nothing is thrown, this fails.
    expect(error).toBeInstanceOf(InsecureTransportError);
    expect((error as Error).message).toContain('example.com');
    expect((error as Error).message).not.toContain('pw');
  });
});
