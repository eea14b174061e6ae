/**
 * The sandbox's pure rules: error codes, the service's business rules (one contract in
 * progress per worker, Pix linkage), rate limiting and webhook retry timing. No I/O, no clock:
 * callers pass `now` and `random`.
 */
import type { BankAccount, CatalogueIndex, CatalogueProposal } from './catalogue.js';

/** One entry of the service's `erros` list (docs/service.md section 7). */
export interface ServiceErro {
  codigo: string;
  msg: string;
}

/** The only code the reference shows: unknown idProposta (docs/service.md 4.1). */
const PROPOSAL_NOT_FOUND = 'SVC_P00003';
/** Our own codes for the rules the reference names without a code (README, "The sandbox: the service on your machine" → "What it answers"). */
const CONTRACT_IN_PROGRESS = 'SVC_C00001';
const PIX_KEY_NOT_LINKED = 'SVC_B00001';
const PIX_KEY_UNKNOWN = 'SVC_B00002';
const OTHER_FIELD_PROBLEM = 'SVC_V00999';

/** One stable code per field of the submission, so a client can branch on the field at fault. */
const validationCodes: Readonly<Record<string, string>> = {
  '': 'SVC_V00001',
  idProposta: 'SVC_V00101',
  pessoa: 'SVC_V00200',
  'pessoa.naturalidade': 'SVC_V00201',
  'pessoa.documento': 'SVC_V00210',
  'pessoa.documento.numero': 'SVC_V00211',
  'pessoa.documento.orgaoExpedidor': 'SVC_V00212',
  'pessoa.documento.uf': 'SVC_V00213',
  'pessoa.documento.dataDeEmissao': 'SVC_V00214',
  'pessoa.documento.tipoDocumento': 'SVC_V00215',
  'pessoa.endereco': 'SVC_V00220',
  'pessoa.endereco.rua': 'SVC_V00221',
  'pessoa.endereco.numero': 'SVC_V00222',
  'pessoa.endereco.complemento': 'SVC_V00223',
  'pessoa.endereco.bairro': 'SVC_V00224',
  'pessoa.endereco.cidade': 'SVC_V00225',
  'pessoa.endereco.uf': 'SVC_V00226',
  'pessoa.endereco.cep': 'SVC_V00227',
  'pessoa.estadoCivil': 'SVC_V00231',
  'pessoa.email': 'SVC_V00232',
  'pessoa.telefone': 'SVC_V00233',
  contaBancaria: 'SVC_V00300',
  'contaBancaria.compe': 'SVC_V00301',
  'contaBancaria.agencia': 'SVC_V00302',
  'contaBancaria.conta': 'SVC_V00303',
  'contaBancaria.tipo': 'SVC_V00304',
  'contaBancaria.chavePix': 'SVC_V00305',
};

/** The code of a validation problem at a dotted `path`: the longest known field prefix wins. */
export function validationCode(path: string): string {
  const clean = path === '(root)' ? '' : path.replace(/^\$\.?/, '').replace(/\[(\d+)\]/g, '.$1');
  const parts = clean === '' ? [] : clean.split('.');
  for (let n = parts.length; n >= 0; n -= 1) {
    const code = validationCodes[parts.slice(0, n).join('.')];
    if (code !== undefined && (n > 0 || parts.length === 0)) return code;
  }
  return OTHER_FIELD_PROBLEM;
}

/** Turn local validation problems into the service's 422 `erros`, the msg naming the field. */
export function toServiceErros(errors: readonly { path: string; message: string }[]): ServiceErro[] {
  return errors.map((e) => ({ codigo: validationCode(e.path), msg: `${e.path || '(body)'}: ${e.message}` }));
}

/** What the rules need of a submission (a structural subset of domain's Submission). */
export interface SubmissionCore {
  idProposta: string;
  contaBancaria: { compe?: string; agencia?: string; conta?: string; tipo?: string; chavePix?: string };
}

/** The bank data a contract records: the key's account when a linked Pix key was sent. */
export interface RecordedBankData {
  compe?: string;
  agencia?: string;
  conta?: string;
  tipo?: string;
  chavePix?: string;
}

export type SubmissionDecision =
  | { kind: 'not_found'; erros: ServiceErro[] }
  | { kind: 'rejected'; proposal: CatalogueProposal; erros: ServiceErro[] }
  | { kind: 'accepted'; proposal: CatalogueProposal; contaBancaria: RecordedBankData; pixReplaced: boolean };

/**
 * Apply the service's rules to a submission that passed validation (docs/service.md 1, 2.5, 7):
 * unknown proposal → 404; a worker's second contract while one is in progress → 422;
 * a Pix key not linked to the worker's CPF (or not in the directory) → 422; a linked key
 * replaces the bank data sent with the key's own.
 */
export function decideSubmission(
  submission: SubmissionCore,
  catalogue: CatalogueIndex,
  contractInProgress: (workerCpf: string) => string | undefined,
): SubmissionDecision {
  const proposal = catalogue.proposal(submission.idProposta);
  if (proposal === undefined) {
    return { kind: 'not_found', erros: [{ codigo: PROPOSAL_NOT_FOUND, msg: `Proposta ${submission.idProposta} não encontrada.` }] };
  }
  const erros: ServiceErro[] = [];
  const running = contractInProgress(proposal.workerCpf);
  if (running !== undefined) {
    erros.push({
      codigo: CONTRACT_IN_PROGRESS,
      msg: `O trabalhador já tem um contrato em andamento (${running}); aguarde a conclusão antes de enviar outro.`,
    });
  }
  const { chavePix, ...sent } = submission.contaBancaria;
  let contaBancaria: RecordedBankData = submission.contaBancaria;
  let pixReplaced = false;
  if (chavePix !== undefined && chavePix !== '') {
    const key = catalogue.pixKey(chavePix);
    if (key === undefined) {
      erros.push({ codigo: PIX_KEY_UNKNOWN, msg: `contaBancaria.chavePix: a chave Pix não está cadastrada, portanto não está vinculada ao CPF do trabalhador.` });
    } else if (key.workerCpf !== proposal.workerCpf) {
      erros.push({ codigo: PIX_KEY_NOT_LINKED, msg: `contaBancaria.chavePix: a chave Pix não está vinculada ao CPF do trabalhador.` });
    } else {
      contaBancaria = { ...key.contaBancaria, chavePix } satisfies BankAccount & { chavePix: string };
      pixReplaced = Object.values(sent).some((v) => v !== undefined && v !== '');
    }
  }
  if (erros.length > 0) return { kind: 'rejected', proposal, erros };
  return { kind: 'accepted', proposal, contaBancaria, pixReplaced };
}

/** Token bucket: `ratePerSecond` requests per second, bursts up to the same number. */
export interface RateLimiter {
  /** Take one token at `nowMs`; when none is left, say how long until one is. */
  take(nowMs: number): { ok: true } | { ok: false; retryAfterMs: number };
}

export function createRateLimiter(ratePerSecond: number): RateLimiter {
  let tokens = ratePerSecond;
  let last: number | undefined;
  return {
    take(nowMs) {
      if (last !== undefined) tokens = Math.min(ratePerSecond, tokens + ((nowMs - last) / 1000) * ratePerSecond);
      last = nowMs;
      if (tokens >= 1) {
        tokens -= 1;
        return { ok: true };
      }
      return { ok: false, retryAfterMs: Math.ceil(((1 - tokens) / ratePerSecond) * 1000) };
    },
  };
}

/** `Retry-After` is whole seconds (RFC 9110 10.2.3): round up, at least 1. */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}

export interface WebhookRetryPolicy {
  /** Attempts in all, the first included. */
  tries: number;
  baseDelayMs: number;
  maxDelayMs?: number;
}

/**
 * Results are retried while the listener is down (docs/cli-contract.md "Sandbox"), so a
 * `watch` restarted within about 15 minutes still gets them: waits of 0.25 s doubling up
 * to 60 s, 22 waits in all, 7.5 to 15 minutes depending on jitter. Independent of --delay.
 */
export const defaultWebhookRetry: Required<WebhookRetryPolicy> = { tries: 23, baseDelayMs: 250, maxDelayMs: 60_000 };

/**
 * Wait before the attempt after failed attempt `attempt` (1-based): exponential from
 * `baseDelayMs`, capped, with "equal jitter" (half fixed, half random) so retries of many
 * contracts do not land together.
 */
export function webhookRetryDelayMs(attempt: number, policy: WebhookRetryPolicy, random: () => number): number {
  const cap = policy.maxDelayMs ?? defaultWebhookRetry.maxDelayMs;
  const exp = Math.min(cap, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(exp / 2 + (exp / 2) * random());
}
