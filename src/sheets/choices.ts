/**
 * The coded fields of a sheet (estado civil, document type, account type): a cell may hold
 * the service's code or its label in Portuguese or English, as the template's drop-down
 * lists and the wizard show them (src/i18n/choice.ts, the one source of the labels).
 * Case, accents, spaces, punctuation and the "(a)" of "Casado(a)" are ignored, and the
 * feminine "Casada" is read as CASADO.
 */
import { ESTADOS_CIVIS, TIPOS_CONTA, TIPOS_DOCUMENTO } from '../domain/submission.js';
import { CATALOGUE, type Message, type MessageKey, msg } from '../i18n/index.js';
import { foldHeader } from './columns.js';

export const CHOICE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  'pessoa.estadoCivil': ESTADOS_CIVIS,
  'pessoa.documento.tipoDocumento': TIPOS_DOCUMENTO,
  'contaBancaria.tipo': TIPOS_CONTA,
};

const fold = (text: string): string => foldHeader(text.replace(/\(a\)/gi, ''));

/** By field: every accepted form, folded, and its code. */
const accepted = new Map<string, Map<string, string>>();
for (const [path, codes] of Object.entries(CHOICE_FIELDS)) {
  const forms = new Map<string, string>();
  for (const code of codes) {
    for (const lang of ['pt-BR', 'en'] as const) {
      const label = CATALOGUE[lang][`choice.${code}` as MessageKey];
      forms.set(fold(label), code);
      // "Casado(a)" is also written "Casada"; "Separado(a) judicialmente", "Separada judicialmente".
      if (label.includes('o(a)')) forms.set(fold(label.replace(/o\(a\)/g, 'a')), code);
    }
    forms.set(fold(code), code);
  }
  accepted.set(path, forms);
}

/** The code a cell of a coded field names, or undefined when it names none. */
export function choiceOf(path: string, text: string): string | undefined {
  return accepted.get(path)?.get(fold(text));
}

/** The allowed values of a coded field as people read them: `Casado(a) (CASADO), ...`. */
export function allowedChoices(path: string): Message {
  const items = (CHOICE_FIELDS[path] ?? []).map((code) => msg('choice.withCode', { label: msg(`choice.${code}` as MessageKey), code }));
  return msg('choice.allowed', { choices: { items, separator: ', ' } });
}
