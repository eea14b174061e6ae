/**
 * The submission (docs/service.md sections 2.1 to 2.5 and 8) as zod schemas: the one source
 * of its types, its rules and `econsig schema`. Field names are the service's, exactly.
 * Every message says what is expected and shows a good value (i18n/rule.ts); the path is
 * added by the caller.
 */
import * as z from './zod.js';
import { ELEVEN_DIGITS, ISO_DATE_SHAPE, UFS, checkPhone, checkPixKey, isRealIsoDate, isValidCnh } from './brazil.js';
import { suggest } from '../suggest.js';
import { type Message, type MessageKey, msg, personal, say } from '../i18n/index.js';

export const ESTADOS_CIVIS = [
  'SOLTEIRO', 'CASADO', 'DIVORCIADO', 'VIUVO', 'SEPARADO', 'UNIAO_ESTAVEL', 'NAO_INFORMADO',
  'SEPARADO_JUDICIALMENTE', 'OUTROS',
] as const;
export type EstadoCivil = (typeof ESTADOS_CIVIS)[number];
export const TIPOS_DOCUMENTO = ['RG', 'CNH'] as const;
export const TIPOS_CONTA = ['CORRENTE', 'POUPANCA'] as const;
export const BANK_FIELDS = ['compe', 'agencia', 'conta', 'tipo'] as const;

const show = (example: string): string => JSON.stringify(example);

/**
 * zod carries an issue's message as a string: these schemas write a message of the catalogue
 * there as JSON, and `messageOfZod` reads it back.
 */
const said = (key: MessageKey, values?: Message['values']): string => JSON.stringify(msg(key, values));

/** The message of an issue raised by these schemas. */
export function messageOfZod(issue: { message: string }): Message {
  return JSON.parse(issue.message) as Message;
}

/** A problem a rule found: the message, and the path below the checked value when it is deeper. */
interface Problem {
  message: Message;
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
      payload.issues.push({ code: 'custom', message: JSON.stringify(problem.message), input: payload.value, path: problem.path ?? [], continue: true });
    }
  };
}

/** A RENACH number (two letters, nine digits), sent by mistake for a CNH's own number. */
const RENACH = /^[A-Z]{2}\d{9}$/i;

/**
 * What is wrong with a CNH's number, or undefined (any other document type passes). Used
 * by the schema and by the wizard at the field, before the rest of the document is given.
 */
export function cnhProblem(tipoDocumento: string | undefined, numero: string): Message | undefined {
  if (tipoDocumento !== 'CNH') return undefined;
  if (RENACH.test(numero)) return msg('rule.renach');
  if (!ELEVEN_DIGITS.test(numero)) return msg('rule.cnhDigits');
  if (!isValidCnh(numero)) return msg('rule.cnhCheck');
  return undefined;
}

/** True when the field holds something (an empty string counts as absent). */
function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

// Descriptions and examples (`meta`, for `econsig schema`) are English: a JSON Schema is read
// by programs and developers.
const describe = (what: MessageKey): string => say('en', what);

function typeError(what: MessageKey, example: string) {
  return (issue: { input?: unknown }): string => {
    const values = { what: msg(what), example: show(example) };
    if (issue.input === undefined) return said('rule.required', values);
    if (issue.input === null) return said('rule.notNull', values);
    if (typeof issue.input === 'number') return said('rule.numberNotText', values);
    return said('rule.notText', values);
  };
}

/** A required, non-blank string. */
function text(what: MessageKey, example: string) {
  return z
    .string({ error: typeError(what, example) })
    .regex(/\S/, { error: said('rule.empty', { what: msg(what), example: show(example) }) })
    .meta({ description: describe(what), examples: [example] });
}

function oneOf<const T extends readonly [string, ...string[]]>(values: T, what: MessageKey) {
  const list = values.join(', ');
  return z
    .enum(values, {
      error: (issue) => {
        if (issue.input === undefined) return said('rule.requiredOneOf', { what: msg(what), list });
        const near = typeof issue.input === 'string' ? suggest(issue.input, values) : undefined;
        return said('rule.oneOf', { list, got: JSON.stringify(issue.input), didYouMean: near ? msg('rule.didYouMean', { near }) : '' });
      },
    })
    .meta({ description: `${describe(what)}: one of ${list}` });
}

function object<T extends z.ZodRawShape>(shape: T, what: MessageKey) {
  return z.object(shape, {
    error: (issue) => said(issue.input === undefined ? 'rule.requiredObject' : 'rule.notObject', { what: msg(what) }),
  });
}

/** Leaf rules, by the dotted path of the field; the wizard checks answers with these. */
export const fieldSchemas = {
  idProposta: text('rule.what.idProposta', 'PROP-1001'),
  'pessoa.naturalidade': text('rule.what.naturalidade', 'São Paulo'),
  'pessoa.estadoCivil': oneOf(ESTADOS_CIVIS, 'rule.what.estadoCivil'),
  'pessoa.email': z
    .string({ error: typeError('rule.what.email', 'maria@example.com') })
    .pipe(z.email({ error: said('rule.email') }))
    .meta({ description: describe('rule.what.email'), examples: ['maria@example.com'] }),
  'pessoa.telefone': text('rule.what.telefone', '+5511987654321').check(
    rule<string>((value) => {
      const check = checkPhone(value);
      if (check.ok) return undefined;
      // The number itself with its "+": a person's phone, said masked unless --reveal.
      const example = /^55\d{10,11}$/.test(value) ? personal('phone', `+${value}`) : show('+5511987654321');
      return { message: msg('rule.withExample', { reason: check.reason, example }) };
    }),
  ),
  'pessoa.documento.numero': text('rule.what.documentoNumero', '123456789').regex(/^[0-9A-Za-z]{1,14}$/, {
    error: said('rule.documentoNumero'),
  }),
  'pessoa.documento.orgaoExpedidor': text('rule.what.orgaoExpedidor', 'SSP'),
  'pessoa.documento.uf': oneOf(UFS, 'rule.what.documentoUf'),
  'pessoa.documento.dataDeEmissao': text('rule.what.dataDeEmissao', '2015-03-21').check(
    rule<string>((value) => {
      if (!ISO_DATE_SHAPE.test(value)) return { message: msg('rule.dateShape') };
      if (!isRealIsoDate(value)) return { message: msg('rule.notRealDate', { value: show(value) }) };
      return undefined;
    }),
  ),
  'pessoa.documento.tipoDocumento': oneOf(TIPOS_DOCUMENTO, 'rule.what.tipoDocumento'),
  'pessoa.endereco.rua': text('rule.what.rua', 'Avenida Paulista'),
  'pessoa.endereco.numero': z
    .string({ error: typeError('rule.what.enderecoNumero', '1578') })
    .regex(/\S/, { error: said('rule.numeroEmpty') })
    .meta({ description: 'address number; "0" when the property has no number', examples: ['1578', '0'] }),
  'pessoa.endereco.complemento': z
    .string({ error: said('rule.complemento') })
    .meta({ description: 'apartment, block, etc. (optional; may be empty)', examples: ['Apto 12'] })
    .optional(),
  'pessoa.endereco.bairro': text('rule.what.bairro', 'Bela Vista'),
  'pessoa.endereco.cidade': text('rule.what.cidade', 'São Paulo'),
  'pessoa.endereco.uf': oneOf(UFS, 'rule.what.enderecoUf'),
  'pessoa.endereco.cep': text('rule.what.cep', '01310100')
    .regex(/^\d{8}$/, { error: said('rule.cep') })
    .refine((v) => v !== '00000000', { error: said('rule.cepZeros') }),
  'contaBancaria.compe': z
    .string({ error: typeError('rule.what.compe', '341') })
    .regex(/^\d{3}$/, { error: said('rule.compe') })
    .meta({ description: 'bank code (COMPE), 3 digits', examples: ['341'] })
    .optional(),
  'contaBancaria.agencia': z
    .string({ error: typeError('rule.what.agencia', '0123') })
    .regex(/^\d{4}$/, { error: said('rule.agencia') })
    .meta({ description: 'branch number, 4 digits with leading zeros, no check digit', examples: ['0123'] })
    .optional(),
  'contaBancaria.conta': z
    .string({ error: typeError('rule.what.conta', '12345-6') })
    .max(17, { error: said('rule.contaLength') })
    .regex(/^\d+-\d$/, { error: said('rule.conta') })
    .meta({ description: 'account number with check digit after a hyphen', examples: ['12345-6'] })
    .optional(),
  'contaBancaria.tipo': oneOf(TIPOS_CONTA, 'rule.what.tipoConta').optional(),
  'contaBancaria.chavePix': z
    .string({ error: typeError('rule.what.chavePix', 'maria@example.com') })
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

const f = fieldSchemas;

const documentoSchema = object(
  {
    numero: f['pessoa.documento.numero'],
    orgaoExpedidor: f['pessoa.documento.orgaoExpedidor'],
    uf: f['pessoa.documento.uf'],
    dataDeEmissao: f['pessoa.documento.dataDeEmissao'],
    tipoDocumento: f['pessoa.documento.tipoDocumento'],
  },
  'rule.what.documento',
).check(
  rule<{ tipoDocumento: string; numero: string }>((doc) => {
    if (typeof doc.numero !== 'string') return undefined;
    const problem = cnhProblem(doc.tipoDocumento, doc.numero);
    return problem ? { path: ['numero'], message: problem } : undefined;
  }),
);

const enderecoSchema = object(
  {
    rua: f['pessoa.endereco.rua'],
    numero: f['pessoa.endereco.numero'],
    complemento: f['pessoa.endereco.complemento'],
    bairro: f['pessoa.endereco.bairro'],
    cidade: f['pessoa.endereco.cidade'],
    uf: f['pessoa.endereco.uf'],
    cep: f['pessoa.endereco.cep'],
  },
  'rule.what.endereco',
);

const pessoaSchema = object(
  {
    naturalidade: f['pessoa.naturalidade'],
    documento: documentoSchema,
    endereco: enderecoSchema,
    estadoCivil: f['pessoa.estadoCivil'],
    email: f['pessoa.email'],
    telefone: f['pessoa.telefone'],
  },
  'rule.what.pessoa',
);

export const contaBancariaSchema = object(
  {
    compe: f['contaBancaria.compe'],
    agencia: f['contaBancaria.agencia'],
    conta: f['contaBancaria.conta'],
    tipo: f['contaBancaria.tipo'],
    chavePix: f['contaBancaria.chavePix'],
  },
  'rule.what.contaBancaria',
).check(
  rule<Partial<Record<(typeof BANK_FIELDS)[number] | 'chavePix', unknown>>>((conta) => {
    // docs/service.md 2.5 rule 1: complete bank data OR a valid Pix key; not both required.
    if (present(conta.chavePix)) return undefined;
    const missing = BANK_FIELDS.filter((name) => !present(conta[name]));
    if (missing.length === BANK_FIELDS.length) return { message: msg('rule.payoutNone') };
    return missing.map((name) => ({ path: [name], message: msg('rule.bankIncomplete', { missing: missing.join(', ') }) }));
  }),
);

export const submissionSchema = object(
  {
    idProposta: f.idProposta,
    pessoa: pessoaSchema,
    contaBancaria: contaBancariaSchema,
  },
  'rule.what.submission',
).meta({
  title: 'econsig submission',
  description:
    'A chosen loan proposal with the worker\'s personal and bank data, for POST /api/v1/e-consignado/contratos.',
});

export type FieldPath = keyof typeof fieldSchemas;

export type Submission = z.infer<typeof submissionSchema>;
export type ContaBancaria = z.infer<typeof contaBancariaSchema>;
