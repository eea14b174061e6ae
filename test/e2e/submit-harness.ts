/**
 * Shared pieces of the submit/history/demo e2e tests: the sandbox started in this process
 * from the built dist (so its requests can be counted), tiny stub servers for answers the
 * sandbox never gives, free ports, fixture copies, and a check of the submit --json shape
 * (docs/cli-contract.md, "Machine-readable output"). Needs `npx tsc -p .` first.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, request as httpRequest, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { repoRoot, tempHome } from './run-cli.js';

/** Every sandbox and stub started here, closed by useScratch's afterEach. */
const open = new Set<{ close: () => Promise<void> }>();

function tracked<T extends { close: () => Promise<void> }>(resource: T): T {
  open.add(resource);
  return resource;
}

export interface Scratch {
  /** A fresh ECONSIG_HOME for each test. */
  home: string;
  /** A fresh folder for each test's files. */
  dir: string;
}

/**
 * Per test: a temporary ECONSIG_HOME and files folder, removed afterwards, and every
 * sandbox and stub the test started, closed afterwards.
 */
export function useScratch(): Scratch {
  const scratch: Scratch = { home: '', dir: '' };
  let cleanup = (): void => undefined;
  beforeEach(() => {
    ({ home: scratch.home, cleanup } = tempHome());
    scratch.dir = mkdtempSync(join(tmpdir(), 'econsig-e2e-files-'));
  });
  afterEach(async () => {
    for (const resource of [...open]) await resource.close();
    open.clear();
    cleanup();
    rmSync(scratch.dir, { recursive: true, force: true });
  });
  return scratch;
}

type SandboxModule = typeof import('../../src/sandbox/server.js');
export type Sandbox = Awaited<ReturnType<SandboxModule['startSandbox']>>;
export type SandboxOptions = NonNullable<Parameters<SandboxModule['startSandbox']>[0]>;

export interface CountedSandbox {
  sandbox: Sandbox;
  /** Requests that reached the sandbox (each retry counts). */
  requests: () => number;
  log: Array<{ status: number; idProposta?: string; codes?: string[] }>;
  close: () => Promise<void>;
}

/** The sandbox of the built dist, in this process, on port 0, counting requests from onLog. */
export async function startCountedSandbox(options: Omit<SandboxOptions, 'port' | 'onLog'> = {}): Promise<CountedSandbox> {
  // The built dist, as the binary runs it; typed from its source.
  const { startSandbox } = (await import(new URL('../../dist/sandbox/server.js', import.meta.url).href)) as SandboxModule;
  const log: CountedSandbox['log'] = [];
  const sandbox = await startSandbox({
    port: 0,
    delayMs: 500,
    ...options,
    onLog: (entry) => {
      if (entry.event === 'request') log.push(entry);
    },
  });
  return tracked({ sandbox, requests: () => log.length, log, close: async () => void (await sandbox.close()) });
}

/** A catalogue of `n` approved proposals PROP-5001.., one worker each (so no "in progress" 422 between them). */
export function catalogueOf(n: number) {
  const ids = Array.from({ length: n }, (_, i) => `PROP-${5001 + i}`);
  const cpf = (i: number) => String(90_000_000_000 + i);
  return {
    ids,
    catalogue: {
      workers: ids.map((_, i) => ({ cpf: cpf(i), name: `Worker ${i}` })),
      proposals: ids.map((idProposta, i) => ({ idProposta, workerCpf: cpf(i), outcome: 'approved' as const })),
      pixKeys: [],
    },
  };
}

/** POSTs per proposal that reached the sandbox. */
export function postsByProposal(sbx: CountedSandbox): Map<string, number> {
  const counts = new Map<string, number>();
  for (const entry of sbx.log) if (entry.idProposta) counts.set(entry.idProposta, (counts.get(entry.idProposta) ?? 0) + 1);
  return counts;
}

/** Environment for the binary aimed at a base URL with a token (CI=1 and NO_COLOR=1 come from runCli). */
export function cliEnv(home: string, baseUrl: string, token: string | undefined): Record<string, string | undefined> {
  return { ECONSIG_HOME: home, ECONSIG_TOKEN: token, ECONSIG_BASE_URL: baseUrl };
}

/** A port that was free a moment ago (listen on 0, read it, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface Stub {
  url: string;
  requests: () => number;
  close: () => Promise<void>;
}

/**
 * An HTTP server on 127.0.0.1:0 that counts requests (counted once the body is read) and
 * lets `handler` answer (or never answer). close() drops connections still open.
 */
export async function startStub(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Stub> {
  let count = 0;
  const server = createHttpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count += 1;
      handler(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return tracked({
    url: `http://127.0.0.1:${port}`,
    requests: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}

export interface CountingProxy {
  /** http://127.0.0.1:PORT (also served on [::1], where this machine has it: `localhost` may be either). */
  url: string;
  port: number;
  /** Each POST that reached the proxy, in order, with the proposal its body named (null until, or unless, the body came whole). */
  posts: Array<{ idProposta: string | null }>;
  /** Resolves when the n-th POST has reached the proxy, as it arrives (its headers read). */
  whenPosts(n: number): Promise<void>;
  /**
   * Resolves once no client connection is open and every request passed on has its answer:
   * after a client is killed, every byte it wrote has been read and counted.
   */
  drained(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A node:http proxy in front of `target` that counts the POSTs reaching it, as a service would
 * see them. A request is passed on once its body is whole, and its answer is awaited even when
 * the client has gone (killed mid-request): what arrived at a service is processed there.
 */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const posts: CountingProxy['posts'] = [];
  const counting: Array<{ n: number; reached: () => void }> = [];
  const sockets = new Set<Socket>();
  let upstream = 0;
  let waiters: Array<() => void> = [];
  const settle = (): void => {
    if (sockets.size > 0 || upstream > 0) return;
    for (const wake of waiters.splice(0)) wake();
  };
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const seen = req.method === 'POST' ? posts[posts.push({ idProposta: null }) - 1] : undefined;
    for (const waiter of counting.filter((w) => posts.length >= w.n)) {
      counting.splice(counting.indexOf(waiter), 1);
      waiter.reached();
    }
    const chunks: Buffer[] = [];
    const named = (): void => {
      if (seen) seen.idProposta = /"idProposta"\s*:\s*"([^"]*)"/.exec(Buffer.concat(chunks).toString('utf8'))?.[1] ?? null;
    };
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A client killed mid-body: what arrived still names its proposal; nothing is passed on.
    req.on('close', () => {
      if (!req.complete) named();
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      named();
      upstream += 1;
      const headers = { ...req.headers, host: new URL(target).host };
      const forward = httpRequest(`${target}${req.url ?? '/'}`, { method: req.method, headers }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (part: Buffer) => parts.push(part));
        answer.on('end', () => {
          upstream -= 1;
          if (!res.destroyed) res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(parts));
          settle();
        });
      });
      forward.on('error', () => {
        upstream -= 1;
        if (!res.destroyed) res.writeHead(502).end();
        settle();
      });
      forward.end(body);
    });
  };
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      settle();
    });
  };
  const servers: Server[] = [];
  const listen = (host: string, port: number): Promise<Server | undefined> =>
    new Promise((resolve) => {
      const server = createHttpServer(handler).on('connection', track);
      server.once('error', () => resolve(undefined));
      server.listen(port, host, () => resolve(server));
    });
  const first = (await listen('127.0.0.1', 0)) as Server;
  servers.push(first);
  const port = (first.address() as { port: number }).port;
  const v6 = await listen('::1', port);
  if (v6) servers.push(v6);
  return tracked({
    url: `http://127.0.0.1:${port}`,
    port,
    posts,
    whenPosts: (n) =>
      new Promise<void>((resolve) => {
        if (posts.length >= n) resolve();
        else counting.push({ n, reached: resolve });
      }),
    drained: () => new Promise<void>((resolve) => {
      waiters.push(resolve);
      settle();
    }),
    close: async () => {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
      waiters = [];
    },
  });
}

export function readFixture(name: string): Record<string, any> {
  return JSON.parse(readFileSync(join(repoRoot, 'fixtures', name), 'utf8')) as Record<string, any>;
}

/** Write `value` as JSON to dir/name and return the path. */
export function writeJson(dir: string, name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
  return path;
}

/**
 * A complete bank account and no Pix key (fixtures/valid/bank-only.json) for any proposal:
 * no Pix linkage rule of the sandbox applies.
 */
export function bankOnly(idProposta: string): Record<string, any> {
  return { ...readFixture('valid/bank-only.json'), idProposta };
}

export interface SubmitDoc {
  ok: boolean;
  results: Array<{
    file: string;
    outcome: string;
    httpStatus: number | null;
    idContrato: string | null;
    erros: Array<{ codigo: string; msg: string }>;
    result: { outcome: string; status: string | null; reason: string | null } | null;
    message?: string;
    hint?: string;
  }>;
}

/** Parse submit --json stdout: exactly one JSON document with the contract's fields. */
export function parseSubmitJson(stdout: string): SubmitDoc {
  const lines = stdout.trim().split('\n');
  expect(lines, `stdout must be one JSON document, got: ${stdout}`).toHaveLength(1);
  const doc = JSON.parse(lines[0] as string) as SubmitDoc;
  expect(typeof doc.ok).toBe('boolean');
  expect(Array.isArray(doc.results)).toBe(true);
  for (const r of doc.results) {
    expect(Object.keys(r)).toEqual(expect.arrayContaining(['file', 'outcome', 'httpStatus', 'idContrato', 'erros', 'result']));
    expect(Array.isArray(r.erros)).toBe(true);
  }
  return doc;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
