/**
 * Delivers result webhooks: signed per Standard Webhooks when a secret is given, retried
 * with exponential backoff and jitter while the listener is down or answers non-2xx.
 */
import { Agent, request } from 'undici';
import { webhookHeaders } from '../webhook/verify.js';
import { defaultWebhookRetry, webhookRetryDelayMs, type RecordedBankData, type WebhookRetryPolicy } from './rules.js';

/** The result event (docs/cli-contract.md "Sandbox"), plus the bank data the contract recorded. */
export interface ResultPayload {
  evento: 'RESULTADO_PROPOSTA';
  idContrato: string;
  idProposta: string;
  status: 'APROVADO' | 'REPROVADO';
  motivo: string | null;
  dataHora: string;
  contaBancaria: RecordedBankData;
}

export interface WebhookLogEntry {
  event: 'webhook';
  time: string;
  webhookId: string;
  idContrato: string;
  idProposta: string;
  status: 'APROVADO' | 'REPROVADO';
  url: string;
  attempt: number;
  tries: number;
  /** HTTP status of the listener's answer, when one came. */
  httpStatus?: number;
  error?: string;
  delivered: boolean;
  /** Wait before the next attempt; absent when delivered or when the tries are spent. */
  nextRetryMs?: number;
  gaveUp?: boolean;
  durationMs: number;
}

export type DeliveryState = 'sending' | 'delivered' | 'failed' | 'scheduled';

export interface WebhookSenderOptions {
  url: string | undefined;
  secret: string | undefined;
  retry: WebhookRetryPolicy | undefined;
  timeoutMs: number;
  random: () => number;
  now: () => Date;
  log: (entry: WebhookLogEntry) => void;
  onState: (idContrato: string, state: DeliveryState, attempts: number) => void;
}

/** How one delivery departs from the sandbox's own (`sandbox trigger`, `events check`). */
export interface DeliverOptions {
  /** The body to send, when not the payload as it is (a payload with fields set by `--set`). */
  body?: string;
  /** The Standard Webhooks id; default one per contract, the same on every retry. */
  webhookId?: string;
  /** Another receiver than the sandbox's webhook URL. */
  url?: string;
  /** Only the first attempt: no retries (a check's row). */
  once?: boolean;
  /** Signed with another secret than the receiver's (a check that a bad signature is refused). */
  badSignature?: boolean;
  /** Seconds added to the timestamp (negative: stale). */
  timestampOffsetSeconds?: number;
  /** Hears the first attempt's outcome (its log entry). */
  onFirstAttempt?: (entry: WebhookLogEntry) => void;
}

export interface WebhookSender {
  deliver(payload: ResultPayload, options?: DeliverOptions): void;
  close(): Promise<void>;
}

/** A secret no receiver has: what `badSignature` signs with. */
const WRONG_SECRET = `whsec_${Buffer.from('econsig-sandbox: not the receiver secret').toString('base64')}`;

export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const policy = { ...defaultWebhookRetry, ...options.retry };
  const agent = new Agent({ connect: { timeout: options.timeoutMs }, keepAliveTimeout: 1000 });
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const attempt = async (payload: ResultPayload, url: string, webhookId: string, n: number, how: DeliverOptions): Promise<void> => {
    if (closed) return;
    options.onState(payload.idContrato, 'sending', n);
    const body = how.body ?? JSON.stringify(payload);
    const secret = how.badSignature ? WRONG_SECRET : options.secret;
    const at = new Date(options.now().getTime() + (how.timestampOffsetSeconds ?? 0) * 1000);
    const headers = { 'content-type': 'application/json', 'user-agent': 'econsig-sandbox', ...webhookHeaders(secret, webhookId, at, body) };
    const started = performance.now();
    let httpStatus: number | undefined;
    let error: string | undefined;
    try {
      const res = await request(url, {
        method: 'POST',
        headers,
        body,
        dispatcher: agent,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
      httpStatus = res.statusCode;
      await res.body.dump();
    } catch (caught) {
      if (closed) return;
      const code = (caught as { code?: unknown }).code;
      error = typeof code === 'string' ? code : caught instanceof Error ? caught.message : String(caught);
    }
    if (closed) return;
    const delivered = httpStatus !== undefined && httpStatus >= 200 && httpStatus < 300;
    const more = !delivered && !how.once && n < policy.tries;
    const nextRetryMs = more ? webhookRetryDelayMs(n, policy, options.random) : undefined;
    const entry: WebhookLogEntry = {
      event: 'webhook',
      time: options.now().toISOString(),
      webhookId,
      idContrato: payload.idContrato,
      idProposta: payload.idProposta,
      status: payload.status,
      url,
      attempt: n,
      tries: policy.tries,
      ...(httpStatus === undefined ? {} : { httpStatus }),
      ...(error === undefined ? {} : { error }),
      delivered,
      ...(nextRetryMs === undefined ? {} : { nextRetryMs }),
      ...(!delivered && !more ? { gaveUp: true } : {}),
      durationMs: Math.round(performance.now() - started),
    };
    options.log(entry);
    if (n === 1) how.onFirstAttempt?.(entry);
    if (delivered) return options.onState(payload.idContrato, 'delivered', n);
    if (!more) return options.onState(payload.idContrato, 'failed', n);
    options.onState(payload.idContrato, 'scheduled', n);
    const timer = setTimeout(() => {
      timers.delete(timer);
      void attempt(payload, url, webhookId, n + 1, how);
    }, nextRetryMs);
    timers.add(timer);
  };

  return {
    deliver(payload, how = {}) {
      const url = how.url ?? options.url;
      if (closed || url === undefined) return;
      // Standard Webhooks: the id is the idempotency key, the same on every retry of one result.
      void attempt(payload, url, how.webhookId ?? webhookIdOf(payload.idContrato), 1, how);
    },
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      // Destroying the agent fails the requests in flight; no shared AbortSignal, whose one
      // listener per request trips MaxListenersExceededWarning past 10 deliveries.
      await agent.destroy().catch(() => undefined);
    },
  };
}

/** The webhook-id of a contract's result: the same on every retry and every `sandbox trigger --times`. */
export function webhookIdOf(idContrato: string): string {
  return `msg_${idContrato.replace(/-/g, '')}`;
}
