/**
 * Normalisation (docs/cli-contract.md, "Normalising input"): the few safe rewrites an operator
 * expects, each one reported as a warning, and fields the service does not define dropped
 * with a "did you mean". Nothing else is guessed.
 */
import * as z from './zod.js';
import { isDdd, isValidCpf } from './brazil.js';
import { type Issue, shownValue } from './issue.js';
import { suggest } from '../suggest.js';
import { type Message, type MessageKey, msg } from '../i18n/index.js';
import { type FieldPath, submissionSchema } from './submission.js';

export type { Issue } from './issue.js';

/** The field names the service defines, as a tree (leaf = null), read off the zod schema. */
export type KeyTree = { readonly [key: string]: KeyTree | null };

function keyTreeOf(schema: z.ZodObject): KeyTree {
  const tree: Record<string, KeyTree | null> = {};
  for (const [key, child] of Object.entries(schema.shape)) {
    const inner = child instanceof z.ZodOptional ? child.unwrap() : child;
    tree[key] = inner instanceof z.ZodObject ? keyTreeOf(inner) : null;
  }
  return tree;
}

export const submissionKeys: KeyTree = keyTreeOf(submissionSchema);

/** Every known path, by its last segment: to point a misplaced field to its home. */
const pathsByName = new Map<string, string[]>();
(function index(tree: KeyTree, prefix: string): void {
  for (const [key, child] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    pathsByName.set(key, [...(pathsByName.get(key) ?? []), path]);
    if (child) index(child, path);
  }
})(submissionKeys, '');

// Patterns as constants, not literals in the functions: a regex literal is a new RegExp
// object each time it is evaluated, and these run for every field of every file. The
// global ones serve only replace(), which starts from the beginning each time.
const DOTS_DASHES_SLASHES_SPACES = /[.\-/\s]/g;
const DOTS_DASHES_SPACES = /[.\-\s]/g;
const PHONE_SEPARATORS = /[\s()\-]/g;
const NATIONAL_PHONE = /^\d{10,11}$/;
const NUMBER_AS_WRITTEN = /^\+?[\d\s().-]+$/;
const NUMBER_PUNCTUATION = /[\s().-]/;
const NUMBER_PUNCTUATION_ALL = /[\s().-]/g;
// DD/MM/YYYY, and D/M/YYYY as a clerk types it (`5/8/2019`).
const BRAZILIAN_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
// A CPF as it is printed: 529.982.247-25 (judged as a CPF whatever its check digits).
const PRINTED_CPF = /^\d{3}\.\d{3}\.\d{3}-\d{2}$/;
// "S/N", "s/nº", "sn°": º and ° written as escapes, as the Node 20 bundle must be ASCII.
const NO_NUMBER = /^s\s*\/?\s*n[\u00ba\u00b0o.]?$/i;
const EIGHT_DIGITS = /^\d{8}$/;
const SHORT_AGENCIA = /^\d{1,3}$/;

const EDGE_SPACE = /^[\s\u200b\u200c\u200d\u2060]+|[\s\u200b\u200c\u200d\u2060]+$/g;

/** A note of what a rewrite changed: a key of the message catalogue (i18n/rule.ts). */
export type Note = MessageKey;

type FieldNormalizer = (value: string) => { value: string; notes: Note[] } | undefined;

const stripPunctuation =
  (note: Note): FieldNormalizer =>
  (value) => {
    const stripped = value.replace(DOTS_DASHES_SLASHES_SPACES, '');
    return stripped !== value ? { value: stripped, notes: [note] } : undefined;
  };

const ASCII_CAPITALS = /^[A-Z_]*$/;

// Nearly every value is already in capitals: say so without making an upper-cased copy.
const upperCase: FieldNormalizer = (value) =>
  !ASCII_CAPITALS.test(value) && value.toUpperCase() !== value ? { value: value.toUpperCase(), notes: ['rule.note.upperCased'] } : undefined;

/** Spaces, brackets and hyphens out; +55 added to a 10- or 11-digit number with a real DDD. */
export function normalizePhone(value: string, asPixKey = false): { value: string; notes: Note[] } | undefined {
  let phone = value.replace(PHONE_SEPARATORS, '');
  const notes: Note[] = [];
  if (phone !== value) notes.push(asPixKey ? 'rule.note.phoneKeySeparators' : 'rule.note.phoneSeparators');
  if (NATIONAL_PHONE.test(phone) && isDdd(phone.slice(0, 2))) {
    phone = `+55${phone}`;
    notes.push(asPixKey ? 'rule.note.phoneKeyPlus55' : 'rule.note.plus55');
  }
  return notes.length ? { value: phone, notes } : undefined;
}

/**
 * Pix keys: e-mail keys lower-cased; otherwise spaces, brackets, dots and hyphens out,
 * then an 11-digit valid CPF stays a CPF key (DICT reads 11 digits as a CPF) and anything
 * else that is a Brazilian number gets +55 as a phone key.
 */
const normalizePixKey: FieldNormalizer = (value) => {
  if (value.includes('@')) {
    const lower = value.toLowerCase();
    return lower !== value ? { value: lower, notes: ['rule.note.emailKeyLower'] } : undefined;
  }
  if (!NUMBER_AS_WRITTEN.test(value) || !NUMBER_PUNCTUATION.test(value)) return undefined;
  const digits = value.replace(NUMBER_PUNCTUATION_ALL, '');
  // Printed as a CPF, it is one: its check digits are the rules' to judge, never a phone's.
  if (PRINTED_CPF.test(value) || (!digits.startsWith('+') && isValidCpf(digits))) return { value: digits, notes: ['rule.note.cpfKeyPunctuation'] };
  return normalizePhone(value, true);
};

const FOLDED_ESTADO_CIVIL = /[\u0300-\u036f]/g;

const normalizers: Partial<Record<FieldPath, FieldNormalizer>> = {
  'pessoa.telefone': normalizePhone,
  'pessoa.estadoCivil': (value) => {
    if (ASCII_CAPITALS.test(value)) return undefined; // folding would change nothing
    const folded = value
      .normalize('NFD')
      .replace(FOLDED_ESTADO_CIVIL, '')
      .trim()
      .replace(/[\s-]+/g, '_')
      .toUpperCase();
    return folded !== value ? { value: folded, notes: ['rule.note.estadoCivil'] } : undefined;
  },
  'pessoa.documento.numero': stripPunctuation('rule.note.documentoPunctuation'),
  'pessoa.documento.uf': upperCase,
  'pessoa.documento.tipoDocumento': upperCase,
  'pessoa.documento.dataDeEmissao': (value) => {
    const match = BRAZILIAN_DATE.exec(value);
    return match ? { value: `${match[3]}-${(match[2] as string).padStart(2, '0')}-${(match[1] as string).padStart(2, '0')}`, notes: ['rule.note.date'] } : undefined;
  },
  'pessoa.endereco.numero': (value) =>
    NO_NUMBER.test(value) ? { value: '0', notes: ['rule.note.noNumber'] } : undefined,
  'pessoa.endereco.uf': upperCase,
  'pessoa.endereco.cep': (value) => {
    const stripped = value.replace(DOTS_DASHES_SPACES, '');
    return stripped !== value && EIGHT_DIGITS.test(stripped)
      ? { value: stripped, notes: ['rule.note.cepPunctuation'] }
      : undefined;
  },
  'contaBancaria.agencia': (value) =>
    SHORT_AGENCIA.test(value) ? { value: value.padStart(4, '0'), notes: ['rule.note.agenciaPadded'] } : undefined,
  'contaBancaria.tipo': upperCase,
  'contaBancaria.chavePix': normalizePixKey,
};

/** A field's value after trimming and its own rewrite, with what changed. */
export function normalizeField(path: FieldPath | string, raw: unknown): { value: unknown; notes: Note[] } {
  if (typeof raw !== 'string') return { value: raw, notes: [] };
  return rewriteString(raw, normalizers[path as FieldPath]) ?? { value: raw, notes: [] };
}

/** undefined when nothing changes: the common case allocates nothing (10k files in a batch). */
function rewriteString(raw: string, rewrite: FieldNormalizer | undefined): { value: string; notes: Note[] } | undefined {
  let value = raw;
  let notes: Note[] | undefined;
  if (value.length > 0 && (isEdgeSpace(value.charCodeAt(0)) || isEdgeSpace(value.charCodeAt(value.length - 1)))) {
    value = value.replace(EDGE_SPACE, '');
    notes = ['rule.note.trimmed'];
  }
  if (NON_ASCII.test(value)) {
    const composed = value.normalize('NFC');
    if (composed !== value) {
      (notes ??= []).push('rule.note.nfc');
      value = composed;
    }
  }
  const rewritten = rewrite?.(value);
  if (rewritten) {
    (notes ??= []).push(...rewritten.notes);
    value = rewritten.value;
  }
  return notes ? { value, notes } : undefined;
}

const NON_ASCII = /[^\x00-\x7f]/;

function isEdgeSpace(code: number): boolean {
  // Printable ASCII first: nearly every string starts and ends with it.
  if (code > 32 && code < 127) return false;
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0xfeff || (code >= 0x2000 && code <= 0x200d) || code === 0x2028 ||
    code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x2060 || code === 0x3000 || code === 0x1680;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A known field, compiled once: its path, its rewrite, and its children by name. */
interface FieldNode {
  readonly path: string;
  /** A payout field: empty means absent (docs/service.md 2.5 rule 1). */
  readonly emptyIsAbsent: boolean;
  /** The one optional field a null is dropped from. */
  readonly nullIsAbsent: boolean;
  readonly rewrite: FieldNormalizer | undefined;
  readonly children: ReadonlyMap<string, FieldNode> | undefined;
  readonly childNames: readonly string[];
}

function compile(tree: KeyTree | null, path: string): FieldNode {
  const children = tree ? new Map(Object.entries(tree).map(([key, child]) => [key, compile(child, path ? `${path}.${key}` : key)])) : undefined;
  return {
    path,
    emptyIsAbsent: path.startsWith('contaBancaria.'),
    nullIsAbsent: path === 'pessoa.endereco.complemento',
    rewrite: normalizers[path as FieldPath],
    children,
    childNames: tree ? Object.keys(tree) : [],
  };
}

const root = compile(submissionKeys, '');

/**
 * The known fields of `source`, normalised. Copy on write: `source` itself when nothing
 * changes, the common case (no allocation per object of a clean file); otherwise a copy
 * from the first change on, in the source's key order.
 */
function walk(source: Record<string, unknown>, node: FieldNode, warnings: Issue[]): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const key in source) {
    if (!Object.hasOwn(source, key)) continue;
    const raw = source[key];
    const child = node.children?.get(key);
    let value: unknown = raw;
    let keep = true;
    if (!child) {
      warnings.push({ path: node.path ? `${node.path}.${key}` : key, message: unknownFieldMessage(key, node.childNames, node.path) });
      keep = false;
    } else if (child.children) {
      if (isPlainObject(raw)) value = walk(raw, child, warnings);
    } else {
      if (typeof raw === 'string') {
        const changed = rewriteString(raw, child.rewrite);
        if (changed) {
          value = changed.value;
          const notes = { items: changed.notes.map((note) => msg(note)), separator: '; ' };
          warnings.push({ path: child.path, message: msg('rule.changed', { notes, from: shownValue(child.path, raw), to: shownValue(child.path, changed.value) }) });
        }
      }
      if (value === '' && child.emptyIsAbsent) {
        // Payout fields are optional one by one (docs/service.md 2.5 rule 1): empty means absent,
        // and the either/or rule then says what is missing.
        warnings.push({ path: child.path, message: msg('rule.emptyAbsent') });
        keep = false;
      } else if (value === null && child.nullIsAbsent) {
        warnings.push({ path: child.path, message: msg('rule.nullComplemento') });
        keep = false;
      }
    }
    if (out === undefined && (!keep || value !== raw)) out = copyBefore(source, key);
    if (out !== undefined && keep) out[key] = value;
  }
  return out ?? source;
}

/** The own keys of `source` that come before `stop`, copied as they are. */
function copyBefore(source: Record<string, unknown>, stop: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in source) {
    if (key === stop) break;
    if (Object.hasOwn(source, key)) out[key] = source[key];
  }
  return out;
}

/**
 * The known fields of `input`, normalised. Unknown fields are left out with a warning; each
 * rewrite is a warning naming the old and new value. Pure: `input` is never changed, and is
 * itself the result when nothing had to change.
 */
export function normalizeSubmission(input: Record<string, unknown>): { value: Record<string, unknown>; warnings: Issue[] } {
  const warnings: Issue[] = [];
  return { value: walk(input, root, warnings), warnings };
}

function unknownFieldMessage(key: string, known: readonly string[], prefix: string): Message {
  const near = suggest(key, known);
  if (near) return msg('rule.unknownNear', { near: JSON.stringify(near) });
  const elsewhere = (pathsByName.get(key) ?? []).filter((p) => p !== (prefix ? `${prefix}.${key}` : key));
  if (elsewhere.length) return msg('rule.unknownHere', { key: JSON.stringify(key), paths: { items: elsewhere, separator: msg('rule.or') } });
  return msg('rule.unknownField');
}
