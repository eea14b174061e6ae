import { readFileSync } from 'node:fs';
import { packageFileText } from '../package-files.js';
import * as z from '../domain/zod.js';
import { UsageError } from '../errors.js';

const cpfSchema = z.string().regex(/^\d{11}$/, 'expected a CPF of 11 digits');

/** Bank data a Pix key resolves to (docs/service.md 2.5 rule 2 replaces the sent data with it). */
export const bankAccountSchema = z.object({
  compe: z.string().regex(/^\d{3}$/, 'expected 3 digits'),
  agencia: z.string().regex(/^\d{4}$/, 'expected 4 digits'),
  conta: z.string().regex(/^\d{1,15}-\d$/, 'expected digits, a hyphen and a check digit'),
  tipo: z.enum(['CORRENTE', 'POUPANCA']),
});
export type BankAccount = z.infer<typeof bankAccountSchema>;

export const catalogueSchema = z
  .object({
    description: z.string().optional(),
    workers: z.array(z.object({ cpf: cpfSchema, name: z.string().min(1) })),
    proposals: z.array(
      z.object({
        idProposta: z.string().min(1),
        workerCpf: cpfSchema,
        outcome: z.enum(['approved', 'denied']),
        reason: z.string().min(1).optional(),
        /**
         * How its result is delivered, for a receiver under test: `twice` (the same webhook-id
         * again once the first was answered), `out-of-order` (approved, then denied, for the same
         * contract), `late` (`lateSeconds` after the delay, past a waiter's timeout).
         */
        scenario: z.enum(['twice', 'out-of-order', 'late']).optional(),
        lateSeconds: z.number().positive().max(86_400).optional(),
      }),
    ),
    pixKeys: z.array(z.object({ key: z.string().min(1), workerCpf: cpfSchema, contaBancaria: bankAccountSchema })),
  })
  .superRefine((c, ctx) => {
    const cpfs = new Set(c.workers.map((w) => w.cpf));
    const seen = new Set<string>();
    c.proposals.forEach((p, i) => {
      if (seen.has(p.idProposta)) ctx.addIssue({ code: 'custom', path: ['proposals', i, 'idProposta'], message: `duplicate idProposta ${p.idProposta}` });
      seen.add(p.idProposta);
      if (!cpfs.has(p.workerCpf)) ctx.addIssue({ code: 'custom', path: ['proposals', i, 'workerCpf'], message: `no worker with CPF ${p.workerCpf}` });
      if (p.outcome === 'denied' && p.reason === undefined) ctx.addIssue({ code: 'custom', path: ['proposals', i, 'reason'], message: 'a denied proposal needs a reason' });
    });
    const keys = new Set<string>();
    c.pixKeys.forEach((k, i) => {
      if (keys.has(k.key)) ctx.addIssue({ code: 'custom', path: ['pixKeys', i, 'key'], message: `duplicate Pix key ${k.key}` });
      keys.add(k.key);
      if (!cpfs.has(k.workerCpf)) ctx.addIssue({ code: 'custom', path: ['pixKeys', i, 'workerCpf'], message: `no worker with CPF ${k.workerCpf}` });
    });
  });
export type Catalogue = z.infer<typeof catalogueSchema>;
export type CatalogueProposal = Catalogue['proposals'][number];
export type CataloguePixKey = Catalogue['pixKeys'][number];

/** The catalogue that ships with econsig. */
export const BUNDLED_CATALOGUE = ['fixtures', 'sandbox', 'catalogue.json'] as const;

/**
 * Check a parsed catalogue. Throws a UsageError naming `source` and the first fields at fault.
 */
export function parseCatalogue(data: unknown, source: string): Catalogue {
  const parsed = catalogueSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  const more = parsed.error.issues.length > 5 ? ` (and ${parsed.error.issues.length - 5} more)` : '';
  return fail(`Catalogue ${source} is not valid: ${problems.join('; ')}${more}.`);
}

/** Read and check a catalogue file (the bundled one when `path` is undefined). */
export function loadCatalogue(path?: string): Catalogue {
  if (path === undefined) return parseCatalogue(JSON.parse(packageFileText(...BUNDLED_CATALOGUE)), BUNDLED_CATALOGUE.join('/'));
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return fail(`Cannot read the catalogue ${path}.`, error);
  }
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    return fail(`Catalogue ${path} is not JSON.`, error);
  }
  return parseCatalogue(data, path);
}

function fail(message: string, cause?: unknown): never {
  throw new UsageError(message, 'See the README, "The sandbox: the service on your machine" → "Catalogue", for its shape, or omit --proposals to use the bundled one.', cause);
}

/** Lookup tables over a catalogue. */
export interface CatalogueIndex {
  proposal(idProposta: string): CatalogueProposal | undefined;
  pixKey(key: string): CataloguePixKey | undefined;
  workerName(cpf: string): string | undefined;
}

export function indexCatalogue(catalogue: Catalogue): CatalogueIndex {
  const proposals = new Map(catalogue.proposals.map((p) => [p.idProposta, p]));
  const keys = new Map(catalogue.pixKeys.map((k) => [k.key, k]));
  const workers = new Map(catalogue.workers.map((w) => [w.cpf, w.name]));
  return {
    proposal: (id) => proposals.get(id),
    pixKey: (key) => keys.get(key),
    workerName: (cpf) => workers.get(cpf),
  };
}
