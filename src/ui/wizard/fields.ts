/**
 * What the wizard asks, in the order a clerk has the papers, and how one answer is checked:
 * normalizeField then the field's zod schema from domain/submission.ts, the same rules
 * `validate` applies (no rule is restated here).
 */
import { type Note, normalizeField } from '../../domain/normalize.js';
import { type Lang, say } from '../../i18n/index.js';
import { BANK_FIELDS, type FieldPath, fieldSchemas, messageOfZod } from '../../domain/submission.js';
import type { PayoutMode, SectionId } from './messages.js';

export const SECTIONS: readonly { id: SectionId; fields: readonly FieldPath[] }[] = [
  { id: 'proposal', fields: ['idProposta'] },
  { id: 'personal', fields: ['pessoa.naturalidade', 'pessoa.email', 'pessoa.telefone'] },
  {
    id: 'document',
    fields: [
      'pessoa.documento.tipoDocumento',
      'pessoa.documento.numero',
      'pessoa.documento.orgaoExpedidor',
      'pessoa.documento.uf',
      'pessoa.documento.dataDeEmissao',
    ],
  },
  {
    id: 'address',
    fields: [
      'pessoa.endereco.rua',
      'pessoa.endereco.numero',
      'pessoa.endereco.complemento',
      'pessoa.endereco.bairro',
      'pessoa.endereco.cidade',
      'pessoa.endereco.uf',
      'pessoa.endereco.cep',
    ],
  },
  { id: 'marital', fields: ['pessoa.estadoCivil'] },
  { id: 'payout', fields: ['contaBancaria.chavePix', 'contaBancaria.compe', 'contaBancaria.agencia', 'contaBancaria.conta', 'contaBancaria.tipo'] },
];

const BANK_PATHS: readonly FieldPath[] = BANK_FIELDS.map((name) => `contaBancaria.${name}` as FieldPath);
const PIX_PATH: FieldPath = 'contaBancaria.chavePix';

/** The payout fields asked for each choice, in order. */
export function payoutFields(mode: PayoutMode): readonly FieldPath[] {
  if (mode === 'pix') return [PIX_PATH];
  if (mode === 'bank') return BANK_PATHS;
  return [PIX_PATH, ...BANK_PATHS];
}

/** Fields the schema lets the document leave out, and the wizard lets the clerk skip. */
export const OPTIONAL_FIELDS: ReadonlySet<FieldPath> = new Set<FieldPath>(['pessoa.endereco.complemento']);

export type FieldKind = 'text' | 'select' | 'uf' | 'bank';

export function fieldKind(path: FieldPath): FieldKind {
  if (path === 'pessoa.documento.uf' || path === 'pessoa.endereco.uf') return 'uf';
  if (path === 'contaBancaria.compe') return 'bank';
  if (path === 'pessoa.documento.tipoDocumento' || path === 'pessoa.estadoCivil' || path === 'contaBancaria.tipo') return 'select';
  return 'text';
}

export function sectionOf(path: string): SectionId | undefined {
  if (path === 'contaBancaria' || path.startsWith('contaBancaria.')) return 'payout';
  if (path === 'pessoa.documento') return 'document';
  if (path === 'pessoa.endereco') return 'address';
  return SECTIONS.find((section) => section.fields.some((field) => path === field || path.startsWith(`${field}.`)))?.id;
}

export type FieldCheck =
  | { ok: true; value: string | undefined; notes: Note[] }
  | { ok: false; message: string; required?: true };

/**
 * One answer, as the service would see it after `validate`'s normalisation. An empty answer
 * to an optional field leaves it out; every other field must be filled, whatever the schema
 * says of it alone (the payout fields are optional only as a group).
 */
export function checkField(path: FieldPath, raw: unknown, lang: Lang): FieldCheck {
  const { value, notes } = normalizeField(path, raw);
  const parsed = fieldSchemas[path].safeParse(value);
  // zod names at least one issue when it refuses.
  if (!parsed.success) return { ok: false, message: say(lang, messageOfZod(parsed.error.issues[0] as { message: string })) };
  if (value === '' || value === undefined) {
    return OPTIONAL_FIELDS.has(path) ? { ok: true, value: undefined, notes: [] } : { ok: false, message: '', required: true };
  }
  return { ok: true, value: String(parsed.data), notes };
}

/** The answers so far, normalised, by dotted path. */
export type Draft = Map<FieldPath, string>;

/** The nested submission document the service takes, from the flat draft. */
export function toSubmission(draft: Draft): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const section of SECTIONS) {
    for (const path of section.fields) {
      const value = draft.get(path);
      if (value === undefined) continue;
      const keys = path.split('.');
      let node = root;
      for (const key of keys.slice(0, -1)) {
        node = (node[key] ??= {}) as Record<string, unknown>;
      }
      node[keys[keys.length - 1]!] = value;
    }
  }
  return root;
}

function at(value: unknown, path: string): unknown {
  let node = value;
  for (const key of path.split('.')) {
    if (typeof node !== 'object' || node === null || Array.isArray(node) || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

export interface Prefill {
  draft: Draft;
  /** Fields present in the file whose value was not accepted, with the rule's message. */
  rejected: Map<FieldPath, string>;
  /** The payout choice the file implies, when it gives any payout field. */
  payout: PayoutMode | undefined;
}

/** Take every field of a parsed `--file` that passes its rule; note the ones that do not. */
export function readPrefill(input: unknown, lang: Lang): Prefill {
  const draft: Draft = new Map();
  const rejected = new Map<FieldPath, string>();
  for (const section of SECTIONS) {
    for (const path of section.fields) {
      const raw = at(input, path);
      // An empty Pix key or a null complemento counts as absent, as in normalizeSubmission.
      if (raw === undefined || (path === PIX_PATH && raw === '') || (OPTIONAL_FIELDS.has(path) && raw === null)) continue;
      const check = checkField(path, raw, lang);
      if (check.ok) {
        if (check.value !== undefined) draft.set(path, check.value);
      } else {
        rejected.set(path, check.required ? say(lang, 'rule.requiredField') : check.message);
      }
    }
  }
  const given = (path: FieldPath): boolean => draft.has(path) || rejected.has(path);
  const pix = given(PIX_PATH);
  const bank = BANK_PATHS.some(given);
  const payout: PayoutMode | undefined = pix && bank ? 'both' : pix ? 'pix' : bank ? 'bank' : undefined;
  return { draft, rejected, payout };
}

/** The payout choice the draft's fields amount to. */
export function payoutModeOf(draft: Draft): PayoutMode | undefined {
  const pix = draft.has(PIX_PATH);
  const bank = BANK_PATHS.some((path) => draft.has(path));
  return pix && bank ? 'both' : pix ? 'pix' : bank ? 'bank' : undefined;
}

/** Drop the payout fields the chosen mode does not send. */
export function keepPayoutFields(draft: Draft, mode: PayoutMode): void {
  const keep = new Set(payoutFields(mode));
  for (const path of [PIX_PATH, ...BANK_PATHS]) if (!keep.has(path)) draft.delete(path);
}
