/**
 * Fakes through the interfaces the flows are given: the record (`Store`, applying the
 * guard's own rule, holdsProposal) and the service (`ServiceClient`), each counting what
 * it was asked. No module of ours is replaced.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { msg } from '../../../src/i18n/index.js';
import {
  holdsProposal,
  type AnswerRecord,
  type ClaimRequest,
  type ClaimResult,
  type EventPage,
  type FollowOptions,
  type HistoryPage,
  type ResultRecord,
  type RunInput,
  type RunRecord,
  type RunStart,
  type SettleRequest,
  type Store,
  type SubmissionRecord,
} from '../../../src/record/record.js';
import type { ServiceClient, SubmitAccepted, SubmitOptions } from '../../../src/service/client.js';
import { StorageError } from '../../../src/settings/home.js';
import type { DeliveryFate, DeliveryRecord } from '../../../src/webhook/delivery.js';

type Counted = 'claim' | 'settle' | 'recordAnswer' | 'recordResult' | 'recordDelivery' | 'resultOf' | 'followResults' | 'close';

/** A failure of the record as the engines report one (a full disk). */
export function storeFailure(location = 'memory:fake'): StorageError {
  return new StorageError(location, msg('store.cannotWrite'), 'ENOSPC', msg('store.hintFull'));
}

/** The record in memory: the guard as the engines apply it, each call counted, failures on demand. */
export class FakeStore implements Store {
  readonly location = 'memory:fake';
  readonly calls: Record<Counted, number> = { claim: 0, settle: 0, recordAnswer: 0, recordResult: 0, recordDelivery: 0, resultOf: 0, followResults: 0, close: 0 };
  /** Claims, oldest first, with their answers (results are joined in when read). */
  private readonly claims: Array<Omit<SubmissionRecord, 'result'>> = [];
  private readonly results = new Map<string, ResultRecord>();
  readonly deliveries: DeliveryRecord[] = [];
  private readonly followers = new Set<(result: ResultRecord) => void>();
  /** From the n-th call of a method on (1-based), it fails as a full disk would. */
  failFrom: Partial<Record<Counted, number>> = {};
  /** Told of each claim before it is decided (a test aborts its batch here). */
  onClaim?: (request: ClaimRequest) => void;

  /** Every claim so far, with its answer and result, oldest first. */
  submissions(): SubmissionRecord[] {
    return this.claims.map((claim) => this.withResult(claim));
  }

  private withResult(claim: Omit<SubmissionRecord, 'result'>): SubmissionRecord {
    const contract = claim.answer?.idContrato;
    return { ...claim, result: (contract ? this.results.get(contract) : undefined) ?? null };
  }

  /** Counts the call, and fails it when asked to; writes resolve on a later turn, as an engine's do. */
  private async count(method: Counted): Promise<void> {
    this.calls[method] += 1;
    await new Promise((resolve) => setImmediate(resolve));
    const from = this.failFrom[method];
    if (from !== undefined && this.calls[method] >= from) throw storeFailure(this.location);
  }

  async claim(request: ClaimRequest): Promise<ClaimResult> {
    this.onClaim?.(request);
    await this.count('claim');
    // The newest submission of this proposal to this service that holds it (record.ts).
    const earlier =
      this.submissions()
        .reverse()
        .find((s) => s.idProposta === request.idProposta && s.service === request.service && holdsProposal(s, request.bodyHash)) ?? null;
    if (earlier && !request.force) return { kind: 'held', earlier };
    const ref = randomUUID();
    const { idProposta, service, baseUrl, bodyHash, file, profile, at } = request;
    this.claims.push({ ref, idProposta, service, baseUrl, bodyHash, file, profile, sentAt: at, run: request.run ?? null, answer: null });
    return { kind: 'claimed', ref, overridden: earlier };
  }

  async settle(request: SettleRequest): Promise<SubmissionRecord | null> {
    await this.count('settle');
    const unknown = [...this.claims]
      .reverse()
      .find((c) => c.idProposta === request.idProposta && c.service === request.service && (c.answer === null || c.answer.outcome === 'unknown'));
    if (!unknown) return null;
    unknown.answer = request.answer;
    return this.withResult(unknown);
  }

  async recordAnswer(ref: string, answer: AnswerRecord): Promise<void> {
    await this.count('recordAnswer');
    const claim = this.claims.find((c) => c.ref === ref);
    if (!claim) throw new Error(`no claim ${ref}`);
    claim.answer = answer;
  }

  async recordResult(result: ResultRecord): Promise<void> {
    await this.count('recordResult');
    this.keepResult(result);
  }

  private keepResult(result: ResultRecord): void {
    if (this.results.has(result.idContrato)) return;
    this.results.set(result.idContrato, result);
    for (const follower of this.followers) follower(result);
  }

  async recordDelivery(delivery: DeliveryRecord): Promise<DeliveryFate> {
    await this.count('recordDelivery');
    if (this.deliveries.some((d) => d.bodyHash === delivery.bodyHash)) return 'duplicate';
    this.deliveries.push(delivery);
    const { idContrato, outcome } = delivery;
    if (idContrato !== null && (outcome === 'approved' || outcome === 'denied' || outcome === 'cancelled')) {
      this.keepResult({ idContrato, at: delivery.receivedAt, outcome, status: delivery.status, reason: delivery.reason });
    }
    return 'stored';
  }

  /** Every delivery here is shown as it is stored (a receiver that never stops between the two). */
  async markShown(): Promise<void> {}

  async ping(): Promise<void> {}

  /** Relays are not followed by the flows under test. */
  async recordForward(): Promise<void> {}

  /** The flows under test never list deliveries (the record's contract suite checks events). */
  async events(): Promise<EventPage> {
    return { events: [], more: 0, moreCap: 0 };
  }

  async event(): Promise<null> {
    return null;
  }

  async history(): Promise<HistoryPage> {
    return { entries: this.submissions().reverse(), more: 0, moreCap: 0, unreadable: [] };
  }

  async resultOf(idContrato: string): Promise<ResultRecord | null> {
    await this.count('resultOf');
    return this.results.get(idContrato) ?? null;
  }

  async followResults(onResult: (result: ResultRecord) => void, options: FollowOptions): Promise<void> {
    await this.count('followResults');
    if (options.signal.aborted) return;
    this.followers.add(onResult);
    options.signal.addEventListener('abort', () => this.followers.delete(onResult), { once: true });
  }

  /** How many follow the results now (a follow stops when its signal aborts). */
  following(): number {
    return this.followers.size;
  }

  async importLegacy(): Promise<void> {}

  /** Runs and their inputs as recorded (the engines' reading of them is the contract suite's). */
  readonly runRecords = new Map<string, { run: RunStart; endedAt: string | null; inputs: RunInput[] }>();

  async startRun(run: RunStart): Promise<boolean> {
    if (this.runRecords.has(run.id)) return false;
    this.runRecords.set(run.id, { run, endedAt: null, inputs: [] });
    return true;
  }

  async recordRunInputs(runId: string, inputs: readonly RunInput[]): Promise<void> {
    this.runRecords.get(runId)?.inputs.push(...inputs);
  }

  async renewRun(runId: string, leaseUntil: string): Promise<void> {
    const record = this.runRecords.get(runId);
    if (record) record.run = { ...record.run, leaseUntil };
  }

  async endRun(runId: string, endedAt: string): Promise<void> {
    const record = this.runRecords.get(runId);
    if (record) record.endedAt = endedAt;
  }

  async run(id: string): Promise<RunRecord | null> {
    const record = id === 'last' ? [...this.runRecords.values()].at(-1) : this.runRecords.get(id);
    return record ? { ...record.run, endedAt: record.endedAt, readAt: new Date().toISOString() } : null;
  }

  async submission(ref: string): Promise<SubmissionRecord | null> {
    const claim = this.claims.find((c) => c.ref === ref);
    return claim ? this.withResult(claim) : null;
  }

  runs(): Promise<never> {
    return Promise.reject(new Error('FakeStore does not list runs'));
  }

  runInputs(): Promise<never> {
    return Promise.reject(new Error('FakeStore does not read inputs back'));
  }

  runNeeds(): Promise<never> {
    return Promise.reject(new Error('FakeStore does not count inputs'));
  }

  // Keeping and forgetting are the engines' (test/unit/record/contract.ts); no flow under test asks for them.
  async dropBodies(): Promise<number> {
    return 0;
  }

  prune(): Promise<never> {
    return Promise.reject(new Error('FakeStore does not prune'));
  }

  forget(): Promise<never> {
    return Promise.reject(new Error('FakeStore does not forget'));
  }

  async close(): Promise<void> {
    this.calls.close += 1;
  }
}

/** What the fake service answers to the n-th submission (1-based): a 202, or a thrown error. */
export type Answer = (body: Record<string, unknown>, n: number) => SubmitAccepted | Promise<SubmitAccepted>;

export const accepted = (idContrato: string): SubmitAccepted => ({ status: 202, idContrato, erros: [], attempts: 1 });

/** Answers every submission 202 with a contract named after its proposal. */
export const acceptAll: Answer = (body) => accepted(`C-${String(body.idProposta)}`);

export interface FakeClient extends ServiceClient {
  /** The bodies submitted, in order. */
  readonly requests: Array<Record<string, unknown>>;
  readonly options: Array<SubmitOptions | undefined>;
  closed: number;
}

/** The service as the client's interface shows it: each submission answered by `answer`. */
export function fakeClient(answer: Answer = acceptAll): FakeClient {
  const client: FakeClient = {
    url: 'http://127.0.0.1:9/api/v1/e-consignado/contratos',
    requests: [],
    options: [],
    closed: 0,
    async submit(body: object | string, opts?: SubmitOptions): Promise<SubmitAccepted> {
      const parsed = (typeof body === 'string' ? JSON.parse(body) : body) as Record<string, unknown>;
      client.requests.push(parsed);
      client.options.push(opts);
      await new Promise((resolve) => setImmediate(resolve));
      return answer(parsed, client.requests.length);
    },
    async close() {
      client.closed += 1;
    },
  };
  return client;
}

export interface Stub {
  url: string;
  port: number;
  /** Requests received, as `METHOD path`. */
  requests: string[];
  close(): Promise<void>;
}

/** A small HTTP server on 127.0.0.1 for answers a test needs (a token endpoint, a service's Date header). */
export async function startStub(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<Stub> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push(`${req.method ?? ''} ${req.url ?? ''}`);
      handler(req, res, Buffer.concat(chunks).toString('utf8'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const stub = await startStub(() => undefined);
  await stub.close();
  return stub.port;
}
