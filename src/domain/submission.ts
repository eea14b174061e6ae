/**
 * The submission (docs/service.md sections 2.1 to 2.5 and 8) as zod schemas: the one source
 * of its types, its rules and `econsig schema`. Field names are the service's, exactly.
 * Every message says what is expected and shows a good value; the path is added by the caller.
 */
import * as z from './zod.js';
import { ELEVEN_DIGITS, ISO_DATE_SHAPE, UFS, checkPhone, checkPixKey, isRealIsoDate, isValidCnh } from './brazil.js';
import { suggest } from '../suggest.js';

export const ESTADOS_CIVIS = [
  'SOLTEIRO', 'CASADO', 'DIVORCIADO', 'VIUVO', 'SEPARADO', 'UNIAO_ESTAVEL', 'NAO_INFORMADO',
  'SEPARADO_JUDICIALMENTE', 'OUTROS',
] as const;
export type EstadoCivil = (typeof ESTADOS_CIVIS)[number];
export const TIPOS_DOCUMENTO = ['RG', 'CNH'] as const;
export const TIPOS_CONTA = ['CORRENTE', 'POUPANCA'] as const;
export const BANK_FIELDS = ['compe', 'agencia', 'conta', 'tipo'] as const;

const show = (example: string): string => JSON.stringify(example);

function typeError(what: string, example: string) {
  return (issue: { input?: unknown }): string => {
    if (issue.input === undefined) return `is required: ${what}, e.g. ${show(example)}`;
    if (issue.input === null) return `must not be null: ${what}, e.g. ${show(example)}`;
    if (typeof issue.input === 'number') {
      return `must be text in quotes, not a number (numbers lose leading zeros), e.g. ${show(example)}`;
    }
    return `must be text (${what}), e.g. ${show(example)}`;
  };
}

/** A required, non-blank string. */
function text(what: string, example: string) {
  return z
    .string({ error: typeError(what, example) })
    .regex(/\S/, { error: `must not be empty: ${what}, e.g. ${show(example)}` })
    .meta({ description: what, examples: [example] });
}

function oneOf<const T extends readonly [string, ...string[]]>(values: T, what: string) {
  const list = values.join(', ');
  return z
    .enum(values, {
      error: (issue) => {
        if (issue.input === undefined) return `is required: ${what}, one of ${list}`;
        const near = typeof issue.input === 'string' ? suggest(issue.input, values) : undefined;
        const hint = near ? `; did you mean ${near}?` : '';
        return `must be one of ${list} (got ${JSON.stringify(issue.input)})${hint}`;
      },
    })
    .meta({ description: `${what}: one of ${list}` });
}

/** A problem a rule found: the message, and the path below the checked value when it is deeper. */
interface Problem {
  message: string;
  path?: string[];
}

/**
 * A rule as a zod check: `find` returns the problems of a value (none: undefined). The
 * issues go straight into zod's payload; superRefine would build a closure per value
 * checked, which shows in a run over 10,000 files.
 */
function rule<T>(find: (value: T) => Problem | Problem[] | undefined) {
  return (payload: z.core.ParsePayload<T>): void => {
    const found = find(payload.value);
    if (found === undefined) return;
    for (const problem of Array.isArray(found) ? found : [found]) {
      payload.issues.push({ code: 'custom', message: problem.message, input: payload.value, path: problem.path ?? [], continue: true });
    }
  };
}

function object<T extends z.ZodRawShape>(shape: T, what: string) {
  return z.object(shape, {
    error: (issue) =>
      issue.input === undefined ? `is required: ${what}` : `must be an object: ${what}`,
  });
}

/** Leaf rules, by the dotted path of the field; the wizard checks answers with these. */
export const fieldSchemas = {
  idProposta: text('id of the simulated proposal the worker chose', 'PROP-1001'),
  'pessoa.naturalidade': text('city of birth', 'São Paulo'),
  'pessoa.estadoCivil': oneOf(ESTADOS_CIVIS, 'marital status'),
  'pessoa.email': z
    .string({ error: typeError("the worker's e-mail address", 'maria@example.com') })
    .pipe(z.email({ error: 'is not a valid e-mail address, e.g. "maria@example.com"' }))
    .meta({ description: "the worker's e-mail address", examples: ['maria@example.com'] }),
  'pessoa.telefone': text('phone with country code, + then digits', '+5511987654321').check(
    rule<string>((value) => {
      const check = checkPhone(value);
      if (check.ok) return undefined;
      const example = /^55\d{10,11}$/.test(value) ? `+${value}` : '+5511987654321';
      return { message: `${check.reason}, e.g. "${example}"` };
    }),
  ),
  'pessoa.documento.numero': text('document number without punctuation', '123456789').regex(
    /^[0-9A-Za-z]{1,14}$/,
    { error: 'must be 1 to 14 letters or digits, without dots, hyphens or spaces, e.g. "123456789"' },
  ),
  'pessoa.documento.orgaoExpedidor': text('issuing body', 'SSP'),
  'pessoa.documento.uf': oneOf(UFS, 'state of issue (2-letter code)'),
  'pessoa.documento.dataDeEmissao': text('issue date YYYY-MM-DD', '2015-03-21').check(
    rule<string>((value) => {
      if (!ISO_DATE_SHAPE.test(value)) return { message: 'must be a date as YYYY-MM-DD (or DD/MM/YYYY), e.g. "2015-03-21"' };
      if (!isRealIsoDate(value)) return { message: `${show(value)} is not a real calendar date` };
      return undefined;
    }),
  ),
  'pessoa.documento.tipoDocumento': oneOf(TIPOS_DOCUMENTO, 'document type'),
  'pessoa.endereco.rua': text('street, avenue, etc.', 'Avenida Paulista'),
  'pessoa.endereco.numero': z
    .string({ error: typeError('address number ("0" when there is none)', '1578') })
    .regex(/\S/, { error: 'must not be empty: send "0" when the property has no number' })
    .meta({ description: 'address number; "0" when the property has no number', examples: ['1578', '0'] }),
  'pessoa.endereco.complemento': z
    .string({ error: 'must be text or left out (apartment, block...), e.g. "Apto 12"' })
    .meta({ description: 'apartment, block, etc. (optional; may be empty)', examples: ['Apto 12'] })
    .optional(),
  'pessoa.endereco.bairro': text('neighbourhood', 'Bela Vista'),
  'pessoa.endereco.cidade': text('city', 'São Paulo'),
  'pessoa.endereco.uf': oneOf(UFS, 'state (2-letter code)'),
  'pessoa.endereco.cep': text('postal code, 8 digits', '01310100')
    .regex(/^\d{8}$/, { error: 'must be 8 digits, e.g. "01310100"' })
    .refine((v) => v !== '00000000', { error: '"00000000" is not a real CEP' }),
  'contaBancaria.compe': z
    .string({ error: typeError('bank code, 3 digits', '341') })
    .regex(/^\d{3}$/, { error: 'must be the 3-digit bank code, e.g. "341" (Itaú) or "001"' })
    .meta({ description: 'bank code (COMPE), 3 digits', examples: ['341'] })
    .optional(),
  'contaBancaria.agencia': z
    .string({ error: typeError('branch, 4 digits without check digit', '0123') })
    .regex(/^\d{4}$/, { error: 'must be the branch number, 4 digits without check digit, e.g. "0123"' })
    .meta({ description: 'branch number, 4 digits with leading zeros, no check digit', examples: ['0123'] })
    .optional(),
  'contaBancaria.conta': z
    .string({ error: typeError('account number with check digit', '12345-6') })
    .max(17, { error: 'must be at most 17 characters including the check digit' })
    .regex(/^\d+-\d$/, {
      error: 'must be digits, a hyphen and a 1-digit check digit, e.g. "12345-6" (a letter check digit such as X cannot be sent)',
    })
    .meta({ description: 'account number with check digit after a hyphen', examples: ['12345-6'] })
    .optional(),
  'contaBancaria.tipo': oneOf(TIPOS_CONTA, 'account type').optional(),
  'contaBancaria.chavePix': z
    .string({ error: typeError('Pix key', 'maria@example.com') })
    .check(
      rule<string>((value) => {
        if (value === '') return undefined;
        const check = checkPixKey(value);
        return check.ok ? undefined : { message: check.reason };
      }),
    )
    .meta({
      description: 'Pix key: e-mail, phone (+55...), CPF (11 digits) or random key (UUID)',
      examples: ['maria@example.com', '+5511987654321', '52998224725'],
    })
    .optional(),
} as const;

export type FieldPath = keyof typeof fieldSchemas;

const f = fieldSchemas;

/** A RENACH number (two letters, nine digits), sent by mistake for a CNH's own number. */
const RENACH = /^[A-Z]{2}\d{9}$/i;

/**
 * What is wrong with a CNH's number, or undefined (any other document type passes). Used
 * by the schema and by the wizard at the field, before the rest of the document is given.
 */
export function cnhProblem(tipoDocumento: string | undefined, numero: string): string | undefined {
  if (tipoDocumento !== 'CNH') return undefined;
  if (RENACH.test(numero)) return 'looks like a RENACH number; a CNH is sent by its 11-digit registration number';
  if (!ELEVEN_DIGITS.test(numero)) return 'a CNH number has 11 digits, e.g. "00000000119"';
  if (!isValidCnh(numero)) return 'is not a valid CNH number (check digits do not match)';
  return undefined;
}

export const documentoSchema = object(
  {
    numero: f['pessoa.documento.numero'],
    orgaoExpedidor: f['pessoa.documento.orgaoExpedidor'],
    uf: f['pessoa.documento.uf'],
    dataDeEmissao: f['pessoa.documento.dataDeEmissao'],
    tipoDocumento: f['pessoa.documento.tipoDocumento'],
  },
  'identity document (numero, orgaoExpedidor, uf, dataDeEmissao, tipoDocumento)',
).check(
  rule<{ tipoDocumento: string; numero: string }>((doc) => {
    if (typeof doc.numero !== 'string') return undefined;
    const problem = cnhProblem(doc.tipoDocumento, doc.numero);
    return problem ? { path: ['numero'], message: problem } : undefined;
  }),
);

export const enderecoSchema = object(
  {
    rua: f['pessoa.endereco.rua'],
    numero: f['pessoa.endereco.numero'],
    complemento: f['pessoa.endereco.complemento'],
    bairro: f['pessoa.endereco.bairro'],
    cidade: f['pessoa.endereco.cidade'],
    uf: f['pessoa.endereco.uf'],
    cep: f['pessoa.endereco.cep'],
  },
  'residential address (rua, numero, bairro, cidade, uf, cep)',
);

export const pessoaSchema = object(
  {
    naturalidade: f['pessoa.naturalidade'],
    documento: documentoSchema,
    endereco: enderecoSchema,
    estadoCivil: f['pessoa.estadoCivil'],
    email: f['pessoa.email'],
    telefone: f['pessoa.telefone'],
  },
  "the worker's personal data (naturalidade, documento, endereco, estadoCivil, email, telefone)",
);

/** True when the field holds something (an empty string counts as absent). */
function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

export const contaBancariaSchema = object(
  {
    compe: f['contaBancaria.compe'],
    agencia: f['contaBancaria.agencia'],
    conta: f['contaBancaria.conta'],
    tipo: f['contaBancaria.tipo'],
    chavePix: f['contaBancaria.chavePix'],
  },
  'payout data: complete bank data (compe, agencia, conta, tipo) or a Pix key (chavePix)',
).check(
  rule<Partial<Record<(typeof BANK_FIELDS)[number] | 'chavePix', unknown>>>((conta) => {
    // docs/service.md 2.5 rule 1: complete bank data OR a valid Pix key; not both required.
    if (present(conta.chavePix)) return undefined;
    const missing = BANK_FIELDS.filter((name) => !present(conta[name]));
    if (missing.length === BANK_FIELDS.length) {
      return { message: 'needs a Pix key (chavePix) or complete bank data (compe, agencia, conta, tipo); neither was given' };
    }
    return missing.map((name) => ({
      path: [name],
      message: `is required: bank data is incomplete (missing ${missing.join(', ')}) and there is no chavePix`,
    }));
  }),
);

export const submissionSchema = object(
  {
    idProposta: f.idProposta,
    pessoa: pessoaSchema,
    contaBancaria: contaBancariaSchema,
  },
  'a submission',
).meta({
  title: 'econsig submission',
  description:
    'A chosen loan proposal with the worker\'s personal and bank data, for POST /api/v1/e-consignado/contratos.',
});

export type Submission = z.infer<typeof submissionSchema>;
export type ContaBancaria = z.infer<typeof contaBancariaSchema>;
