/**
 * The sandbox: a local HTTP simulator of the contract submission service (docs/service.md),
 * importable so tests and `demo` run it in-process on port 0.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { validateSubmission } from '../domain/validate.js';
import { say } from '../i18n/index.js';
import { UsageError } from '../errors.js';
import { cannotBind, hostForUrl, readBody } from '../webhook/http.js';
import { decodeSecret } from '../webhook/verify.js';
import { REVOKE_PATH, TOKEN_PATH, createOAuthServer, type OAuthOptions, type OAuthServer } from './oauth.js';
import { indexCatalogue, loadCatalogue, parseCatalogue, type Catalogue } from './catalogue.js';
import {
  createRateLimiter,
  decideSubmission,
  retryAfterSeconds,
  toServiceErros,
  type RecordedBankData,
  type ServiceErro,
  type SubmissionCore,
  type WebhookRetryPolicy,
} from './rules.js';
import { createWebhookSender, type ResultPayload, type WebhookLogEntry, webhookIdOf } from './webhook-sender.js';
import { TRIGGER_PATH, type TriggerAnswer, triggerPayload, triggerRequestSchema, UNKNOWN_CONTRACT_CODE } from './trigger.js';

export const CONTRACTS_PATH = '/api/v1/e-consignado/contratos';

/** What validates a submission: the lead's validateSubmission, or a stand-in in tests. */
export type SubmissionValidator = (
  input: unknown,
  now: Date,
) => { value?: SubmissionCore; errors: { path: string; message: string }[] };

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** The bearer token accepted; default a fresh `sbx_...`. */
  token?: string;
  /** Where result webhooks go; none are sent when absent. */
  webhookUrl?: string;
  /** How long each contract stays in progress before its result. */
  delayMs?: number;
  /** Standard Webhooks secret (`whsec_...`): deliveries are signed when given. */
  secret?: string;
  /** Requests per second before 429. */
  rateLimit?: number;
  /** A catalogue, or the path of one; default the bundled fixtures/sandbox/catalogue.json. */
  catalogue?: Catalogue | string;
  /** Chaos: share (0..1) of requests answered 500. */
  failRate?: number;
  /** Chaos: milliseconds added before every answer. */
  latencyMs?: number;
  /** How the latency is waited for (tests hold it); a timer by default. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => Date;
  onLog?: (entry: SandboxLogEntry) => void;
  webhookRetry?: WebhookRetryPolicy;
  /** Per webhook attempt limit. */
  webhookTimeoutMs?: number;
  validate?: SubmissionValidator;
  /** Play an OAuth2 token endpoint at /oauth2/token; only the tokens it issues are accepted. */
  oauth?: OAuthOptions;
  /** Serve HTTPS; with `clientCa`, demand a client certificate signed by it (mTLS). */
  tls?: { cert: Buffer | string; key: Buffer | string; clientCa?: Buffer | string };
}

export interface RequestLogEntry {
  event: 'request';
  time: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  idProposta?: string;
  idContrato?: string;
  codes?: string[];
  /** The bank data the contract recorded (the Pix key's, when a linked key was sent). */
  contaBancaria?: RecordedBankData;
  pixReplaced?: boolean;
  retryAfter?: number;
}
export type { WebhookLogEntry };
export type SandboxLogEntry = RequestLogEntry | WebhookLogEntry;

export type WebhookState = 'none' | 'scheduled' | 'sending' | 'delivered' | 'failed' | 'cancelled';

export interface SandboxContract {
  idContrato: string;
  idProposta: string;
  workerCpf: string;
  status: 'APROVADO' | 'REPROVADO';
  motivo: string | null;
  contaBancaria: RecordedBankData;
  pixReplaced: boolean;
  createdAt: string;
  /** Set when the delay ends: the worker may then submit again. */
  finishedAt: string | null;
  webhook: WebhookState;
  webhookAttempts: number;
}

export interface Sandbox {
  /** Base URL, no trailing slash. */
  readonly url: string;
  readonly token: string;
  readonly port: number;
  readonly webhookUrl: string | undefined;
  /** With `oauth`: the token endpoint and the client it accepts. */
  readonly oauth: { tokenUrl: string; clientId: string; clientSecret: string; tokenTtlSeconds: number; issued(): number; issuedTokens(): string[] } | undefined;
  /** Stop accepting, cancel timers and deliveries; report results not delivered. */
  close(): Promise<{ pendingWebhooks: number; pending: string[] }>;
  contracts(): SandboxContract[];
}

/** Start the sandbox. Rejects with an EconsigError (exit 2) when the port cannot be bound. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? `sbx_${randomBytes(16).toString('hex')}`;
  const random = options.random ?? Math.random;
  const now = options.now ?? (() => new Date());
  const delayMs = options.delayMs ?? 3000;
  const failRate = options.failRate ?? 0;
  const latencyMs = options.latencyMs ?? 0;
  const log = options.onLog ?? (() => undefined);
  const catalogue = indexCatalogue(
    options.catalogue === undefined || typeof options.catalogue === 'string'
      ? loadCatalogue(options.catalogue)
      : parseCatalogue(options.catalogue, '(in memory)'),
  );
  if (options.secret !== undefined) {
    try {
      decodeSecret(options.secret);
    } catch (error) {
      throw new UsageError('The webhook secret cannot be used.', 'Give a secret like whsec_<base64>, e.g. whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw.', error);
    }
  }
  if (options.webhookUrl !== undefined && !/^https?:\/\//.test(options.webhookUrl)) {
    throw new UsageError(`Webhook URL ${options.webhookUrl} is not an http(s) URL.`);
  }
  const validate = options.validate ?? strictValidator;
  const limiter = options.rateLimit === undefined ? undefined : createRateLimiter(options.rateLimit);
  const oauth: OAuthServer | undefined = options.oauth ? createOAuthServer(options.oauth) : undefined;

  const contracts = new Map<string, SandboxContract>();
  const inProgress = new Map<string, string>(); // worker CPF → idContrato
  const timers = new Set<NodeJS.Timeout>();
  const sender = createWebhookSender({
    url: options.webhookUrl,
    secret: options.secret,
    retry: options.webhookRetry,
    timeoutMs: options.webhookTimeoutMs ?? 5000,
    random,
    now,
    log,
    onState: (idContrato, state, attempts) => {
      const contract = contracts.get(idContrato);
      if (contract) Object.assign(contract, { webhook: state, webhookAttempts: attempts });
    },
  });

  // docs/service.md 1: one contract in progress per worker. It is finished when the delay
  // ends, whatever happens to the webhook, so "in progress for --delay seconds" holds exactly.
  const resultOf = (contract: SandboxContract, at: string): ResultPayload => ({
    evento: 'RESULTADO_PROPOSTA',
    idContrato: contract.idContrato,
    idProposta: contract.idProposta,
    status: contract.status,
    motivo: contract.motivo,
    dataHora: at,
    contaBancaria: contract.contaBancaria,
  });
  const finish = (contract: SandboxContract): void => {
    contract.finishedAt = now().toISOString();
    if (inProgress.get(contract.workerCpf) === contract.idContrato) inProgress.delete(contract.workerCpf);
    const result = resultOf(contract, contract.finishedAt);
    const proposal = catalogue.proposal(contract.idProposta);
    switch (proposal?.scenario) {
      case 'twice':
        // The same webhook-id and body again, once the first copy was answered.
        return sender.deliver(result, { onFirstAttempt: () => sender.deliver(result) });
      case 'out-of-order': {
        // An approval, then a denial of the same contract (its own webhook-id): no ordering promise.
        const approved = { ...result, status: 'APROVADO' as const, motivo: null };
        const denied = { ...result, status: 'REPROVADO' as const, motivo: proposal.reason ?? null, dataHora: now().toISOString() };
        return sender.deliver(approved, { onFirstAttempt: () => sender.deliver(denied, { webhookId: `${webhookIdOf(contract.idContrato)}_2` }) });
      }
      case 'late': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          sender.deliver(result);
        }, (proposal.lateSeconds ?? 30) * 1000);
        timers.add(timer);
        return;
      }
      default:
        return sender.deliver(result);
    }
  };

  /**
   * POST /sandbox/v1/trigger (`econsig sandbox trigger`): the result of a contract (or of a
   * proposal, whose contract is created first) sent now, `times` times with one webhook-id,
   * each copy once the previous one was answered; answered with the first attempt of each,
   * at once when one is not 2xx (the sender goes on retrying it as always).
   */
  const trigger = async (data: unknown): Promise<{ status: number; body: unknown }> => {
    const parsed = triggerRequestSchema.safeParse(data);
    if (!parsed.success) return { status: 400, body: { erros: parsed.error.issues.map((i) => ({ codigo: 'SVC_R00400', msg: `${i.path.join('.') || '(body)'}: ${i.message}` })) } };
    const request = parsed.data;
    if ((request.to ?? options.webhookUrl) === undefined) return { status: 409, body: { erros: [{ codigo: 'SVC_T00409', msg: 'O sandbox não tem URL de webhook (--webhook-url).' }] } };
    let contract = request.idContrato === undefined ? undefined : contracts.get(request.idContrato);
    if (request.idContrato !== undefined && contract === undefined) return { status: 404, body: { erros: [{ codigo: UNKNOWN_CONTRACT_CODE, msg: `Contrato ${request.idContrato} não foi emitido por este sandbox.` }] } };
    if (contract === undefined) {
      const proposal = catalogue.proposal(request.idProposta!);
      contract = {
        idContrato: randomUUID(),
        idProposta: request.idProposta!,
        workerCpf: proposal?.workerCpf ?? '',
        status: request.outcome === 'approved' ? 'APROVADO' : 'REPROVADO',
        motivo: proposal?.reason ?? null,
        contaBancaria: {},
        pixReplaced: false,
        createdAt: now().toISOString(),
        finishedAt: now().toISOString(),
        webhook: 'none',
        webhookAttempts: 0,
      };
      contracts.set(contract.idContrato, contract);
    }
    const base = resultOf(contract, now().toISOString());
    const body = JSON.stringify(triggerPayload(base, request));
    const answer: TriggerAnswer = { idContrato: contract.idContrato, idProposta: contract.idProposta, webhookId: request.webhookId ?? `msg_trg_${randomBytes(12).toString('hex')}`, attempts: [] };
    for (let copy = 0; copy < request.times; copy++) {
      const first = await new Promise<WebhookLogEntry>((onFirstAttempt) =>
        sender.deliver(base, {
          body,
          webhookId: answer.webhookId,
          ...(request.to === undefined ? {} : { url: request.to }),
          once: request.once,
          badSignature: request.badSignature,
          timestampOffsetSeconds: request.timestampOffsetSeconds,
          onFirstAttempt,
        }),
      );
      answer.attempts.push({ httpStatus: first.httpStatus ?? null, error: first.error ?? null, delivered: first.delivered });
      if (!first.delivered) break;
    }
    return { status: 200, body: answer };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const entry: RequestLogEntry = { event: 'request', time: now().toISOString(), method: req.method ?? '', path, status: 0, durationMs: 0 };
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
      res.end(text);
      entry.status = status;
      entry.durationMs = Math.round(performance.now() - started);
      const erros = (body as { erros?: ServiceErro[] }).erros;
      if (erros && erros.length > 0) entry.codes = erros.map((e) => e.codigo);
      log(entry);
    };
    const reject = (status: number, codigo: string, msg: string, headers?: Record<string, string>): void =>
      answer(status, { erros: [{ codigo, msg }] }, headers);

    if (latencyMs > 0) await (options.sleep ?? sleep)(latencyMs);
    if (oauth && (path === TOKEN_PATH || path === REVOKE_PATH)) {
      if (req.method !== 'POST') return answer(405, { error: 'invalid_request', error_description: 'Use POST.' }, { allow: 'POST' });
      const form = await readBody(req);
      const result = oauth.handle(path, req.headers.authorization, form === null ? '' : form.toString('utf8'), now().getTime());
      return answer(result.status, result.body, result.headers);
    }
    if (path === TRIGGER_PATH) {
      if (req.method !== 'POST') return reject(405, 'SVC_R00405', `Método ${req.method} não permitido; use POST.`, { allow: 'POST' });
      if (!sameToken(req.headers.authorization ?? '', `Bearer ${token}`)) return answer(401, { code: 401, message: 'Token do sandbox inválido.' });
      const body = await readBody(req);
      let data: unknown;
      try {
        data = JSON.parse(body === null ? '' : body.toString('utf8'));
      } catch {
        return reject(400, 'SVC_R00400', 'O corpo da requisição não é um JSON válido.');
      }
      const result = await trigger(data);
      return answer(result.status, result.body);
    }
    if (path !== CONTRACTS_PATH) return reject(404, 'SVC_R00404', `Recurso ${path} não existe; use POST ${CONTRACTS_PATH}.`);
    if (req.method !== 'POST') return reject(405, 'SVC_R00405', `Método ${req.method} não permitido; use POST.`, { allow: 'POST' });
    if (limiter) {
      const taken = limiter.take(performance.now());
      if (!taken.ok) {
        entry.retryAfter = retryAfterSeconds(taken.retryAfterMs);
        return reject(429, 'SVC_R00429', 'Limite de requisições atingido.', { 'retry-after': String(entry.retryAfter) });
      }
    }
    if (failRate > 0 && random() < failRate) return answer(500, { code: 500, message: 'Falha simulada pelo sandbox (--fail-rate).' });
    // docs/service.md 5: 401 comes from the authentication interface, shaped {code, message}.
    const auth = req.headers.authorization;
    if (auth === undefined) return answer(401, { code: 401, message: '' });
    const bearer = /^Bearer (\S+)$/.exec(auth)?.[1];
    const known = oauth ? bearer !== undefined && oauth.accepts(bearer, now().getTime()) : sameToken(auth, `Bearer ${token}`);
    if (!known) return answer(401, { code: 401, message: 'Token inválido ou expirado.' });
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') {
      return reject(415, 'SVC_R00415', `Content-Type ${req.headers['content-type'] ?? '(none)'} não suportado; use application/json.`);
    }
    const body = await readBody(req);
    if (body === null) return reject(413, 'SVC_R00413', 'Corpo acima de 1 MiB.', { connection: 'close' });
    let data: unknown;
    try {
      data = JSON.parse(body.toString('utf8'));
    } catch {
      return reject(400, 'SVC_R00400', 'O corpo da requisição não é um JSON válido.');
    }
    if (typeof data === 'object' && data !== null && typeof (data as { idProposta?: unknown }).idProposta === 'string') {
      entry.idProposta = (data as { idProposta: string }).idProposta;
    }
    const checked = validate(data, now());
    if (checked.errors.length > 0 || checked.value === undefined) return answer(422, { erros: toServiceErros(checked.errors) });
    const decision = decideSubmission(checked.value, catalogue, (cpf) => inProgress.get(cpf));
    if (decision.kind === 'not_found') return answer(404, { erros: decision.erros });
    if (decision.kind === 'rejected') return answer(422, { erros: decision.erros });

    const contract: SandboxContract = {
      idContrato: randomUUID(),
      idProposta: decision.proposal.idProposta,
      workerCpf: decision.proposal.workerCpf,
      status: decision.proposal.outcome === 'approved' ? 'APROVADO' : 'REPROVADO',
      motivo: decision.proposal.outcome === 'denied' ? (decision.proposal.reason ?? null) : null,
      contaBancaria: decision.contaBancaria,
      pixReplaced: decision.pixReplaced,
      createdAt: now().toISOString(),
      finishedAt: null,
      webhook: options.webhookUrl === undefined ? 'none' : 'scheduled',
      webhookAttempts: 0,
    };
    contracts.set(contract.idContrato, contract);
    inProgress.set(contract.workerCpf, contract.idContrato);
    const timer = setTimeout(() => {
      timers.delete(timer);
      finish(contract);
    }, delayMs);
    timers.add(timer);
    Object.assign(entry, { idContrato: contract.idContrato, contaBancaria: contract.contaBancaria, pixReplaced: contract.pixReplaced });
    answer(202, { idContrato: contract.idContrato, erros: [] });
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 500, message: `Erro interno do sandbox: ${error instanceof Error ? error.message : String(error)}` }));
      }
    });
  };
  const tls = options.tls;
  const server: Server = tls
    ? createHttpsServer(
        {
          cert: tls.cert,
          key: tls.key,
          ...(tls.clientCa === undefined ? {} : { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true }),
        },
        onRequest,
      )
    : createServer(onRequest);
  const port = await listen(server, options.port ?? 4010, host);
  const url = `${tls ? 'https' : 'http'}://${hostForUrl(host)}:${port}`;

  let closing: Promise<{ pendingWebhooks: number; pending: string[] }> | undefined;
  const close = (): Promise<{ pendingWebhooks: number; pending: string[] }> => {
    closing ??= (async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const pending = [...contracts.values()]
        .filter((c) => c.webhook === 'scheduled' || c.webhook === 'sending')
        .map((c) => c.idContrato);
      for (const id of pending) {
        const contract = contracts.get(id);
        if (contract) contract.webhook = 'cancelled';
      }
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await Promise.all([stopped, sender.close()]);
      return { pendingWebhooks: pending.length, pending };
    })();
    return closing;
  };

  return {
    url,
    token,
    port,
    webhookUrl: options.webhookUrl,
    oauth: oauth
      ? { tokenUrl: `${url}${TOKEN_PATH}`, clientId: oauth.clientId, clientSecret: oauth.clientSecret, tokenTtlSeconds: oauth.tokenTtlSeconds, issued: oauth.issued, issuedTokens: oauth.issuedTokens }
      : undefined,
    close,
    contracts: () => [...contracts.values()].map((c) => ({ ...c })),
  };
}

// The sandbox plays the strict service: no normalisation, warnings ignored, its answers in
// English whatever the language of the run that started it.
const strictValidator: SubmissionValidator = (input, now) => {
  const result = validateSubmission(input, { now, normalize: false });
  return { ...result, errors: result.errors.map((e) => ({ path: e.path, message: say('en', e.message) })) };
};

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      reject(cannotBind(host, port, error.code, error, 'port'));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
