/**
 * Finding the contract id, status and reason in a webhook payload whose shape is not
 * documented (docs/cli-contract.md "Listener"; docs/brazilian-data.md §3: never map strictly).
 */
export type WebhookOutcome = 'approved' | 'denied' | 'cancelled' | 'unknown';

export interface ExtractOptions {
  /** Dotted path of the contract id (config `webhook.id-field`), tried before the search. */
  idField?: string;
  /** Dotted path of the status (config `webhook.status-field`), tried before the search. */
  statusField?: string;
}

export interface ExtractedResult {
  idContrato: string | null;
  idProposta: string | null;
  /** The raw status as sent (booleans and numbers as text), or null. */
  status: string | null;
  outcome: WebhookOutcome;
  reason: string | null;
}

const MAX_DEPTH = 4;

// Priority order within one level; a shallower match always wins over a deeper one.
const ID_KEYS = ['idContrato', 'contractId', 'id_contrato', 'contract_id', 'contratoId', 'idcontrato'];
// Vendor ids that stand for the contract when none of the above is present (docs/brazilian-data.md §3).
const ID_FALLBACK_KEYS = ['contract_number', 'contractNumber', 'numeroContrato', 'application_id', 'applicationId', 'consultId'];
// `contrato.id` / `data.id`: a bare `id` counts only inside these containers (a top-level `id` is usually the event's).
const ID_CONTAINERS = new Set(['contrato', 'contract', 'data', 'payload']);
const STATUS_KEYS = ['status', 'situacao', 'resultado', 'statusProposta', 'decisao'];
const STATUS_FALLBACK_KEYS = ['success', 'aprovado', 'approved'];
const PROPOSAL_KEYS = ['idProposta', 'proposalId', 'id_proposta', 'proposal_id', 'proposal_number', 'numeroProposta'];
const REASON_KEYS = ['motivo', 'reason', 'reasons', 'cancel_reason', 'motivos', 'descricao'];

const WORDS: Record<string, WebhookOutcome> = {};
for (const w of ['APROVADO', 'APROVADA', 'APPROVED', 'TRUE']) WORDS[w] = 'approved';
for (const w of ['REPROVADO', 'REPROVADA', 'RECUSADO', 'RECUSADA', 'NEGADO', 'NEGADA', 'REJEITADO', 'REJEITADA', 'DENIED', 'REJECTED', 'FALSE']) {
  WORDS[w] = 'denied';
}
for (const w of ['CANCELADO', 'CANCELADA', 'CANCELED', 'CANCELLED']) WORDS[w] = 'cancelled';

/**
 * Maps a status word to an outcome, ignoring case and spaces (vendor docs contain
 * `"canceled "`). Booleans: true approved, false denied. Anything else is `unknown`.
 */
export function mapStatus(raw: unknown): WebhookOutcome {
  if (typeof raw === 'boolean') return raw ? 'approved' : 'denied';
  if (typeof raw !== 'string') return 'unknown';
  return WORDS[raw.replace(/\s+/g, '').toUpperCase()] ?? 'unknown';
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads a dotted path (`data.contrato.id`, `reasons.0.code`). */
export function getPath(value: unknown, path: string): unknown {
  let cur = value;
  for (const part of path.split('.')) {
    if (Array.isArray(cur) && /^\d+$/.test(part)) cur = cur[Number(part)];
    else if (isObj(cur)) cur = cur[part];
    else return undefined;
  }
  return cur;
}

interface Node {
  obj: Obj;
  key: string | null;
}

/** Objects of the payload breadth-first (not into arrays), to MAX_DEPTH, with the key they sit under. */
function levels(payload: unknown): Node[][] {
  const out: Node[][] = [];
  let level: Node[] = isObj(payload) ? [{ obj: payload, key: null }] : [];
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0; depth++) {
    out.push(level);
    const next: Node[] = [];
    for (const node of level) {
      for (const [key, value] of Object.entries(node.obj)) if (isObj(value)) next.push({ obj: value, key });
    }
    level = next;
  }
  return out;
}

function scalarText(v: unknown): string | null {
  if (typeof v === 'string') return v.trim() === '' ? null : v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return null;
}

function findFirst(tree: Node[][], keys: readonly string[], accept: (v: unknown) => boolean): unknown {
  for (const level of tree) {
    for (const key of keys) {
      for (const node of level) {
        if (Object.hasOwn(node.obj, key) && accept(node.obj[key])) return node.obj[key];
      }
    }
  }
  return undefined;
}

const isIdLike = (v: unknown) => (typeof v === 'string' && v.trim() !== '') || (typeof v === 'number' && Number.isFinite(v));
const isStatusLike = (v: unknown) => typeof v === 'boolean' || isIdLike(v);

function findContractId(tree: Node[][]): unknown {
  const direct = findFirst(tree, ID_KEYS, isIdLike);
  if (direct !== undefined) return direct;
  for (const level of tree) {
    // Prefer `contrato.id` over `data.id` at the same depth.
    const inContainer = level
      .filter((n) => n.key !== null && ID_CONTAINERS.has(n.key) && isIdLike(n.obj.id))
      .sort((a, b) => Number(b.key === 'contrato' || b.key === 'contract') - Number(a.key === 'contrato' || a.key === 'contract'));
    const fallback = findFirst([level], ID_FALLBACK_KEYS, isIdLike);
    if (fallback !== undefined) return fallback;
    if (inContainer[0]) return inContainer[0].obj.id;
  }
  return undefined;
}

function describeReasonItem(v: unknown): string | null {
  const text = scalarText(v);
  if (text !== null) return text;
  if (!isObj(v)) return null;
  const code = scalarText(v.codigo ?? v.code ?? v.enumerator);
  const desc = scalarText(v.descricao ?? v.description ?? v.mensagem ?? v.message ?? v.msg);
  if (code && desc) return `${code}: ${desc}`;
  return desc ?? code;
}

function describeReason(v: unknown): string | null {
  if (Array.isArray(v)) {
    const parts = v.map(describeReasonItem).filter((p): p is string => p !== null);
    return parts.length > 0 ? parts.join('; ') : null;
  }
  return describeReasonItem(v);
}

function findReason(tree: Node[][]): string | null {
  for (const level of tree) {
    for (const key of REASON_KEYS) {
      for (const node of level) {
        if (!Object.hasOwn(node.obj, key)) continue;
        const text = describeReason(node.obj[key]);
        if (text !== null) return text;
      }
    }
  }
  return null;
}

/**
 * Extracts contract id, proposal id, status (and its outcome) and a reason from any
 * payload, searching breadth-first to a bounded depth so the shallowest match wins.
 * `options.idField` / `statusField` name the fields exactly when a real payload differs;
 * when such a path is absent the search still runs. Never throws.
 */
export function extractResult(payload: unknown, options: ExtractOptions = {}): ExtractedResult {
  const tree = levels(payload);
  const override = (path: string | undefined, accept: (v: unknown) => boolean) => {
    if (!path) return undefined;
    const v = getPath(payload, path);
    return accept(v) ? v : undefined;
  };
  const id = override(options.idField, isIdLike) ?? findContractId(tree);
  const rawStatus =
    override(options.statusField, isStatusLike) ?? findFirst(tree, STATUS_KEYS, isStatusLike) ?? findFirst(tree, STATUS_FALLBACK_KEYS, (v) => typeof v === 'boolean');
  const proposal = findFirst(tree, PROPOSAL_KEYS, isIdLike);
  const status = scalarText(rawStatus);
  return {
    idContrato: scalarText(id),
    idProposta: scalarText(proposal),
    status,
    outcome: mapStatus(rawStatus),
    reason: findReason(tree),
  };
}
