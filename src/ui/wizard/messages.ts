/**
 * The wizard's words in English and Brazilian Portuguese, from the one catalogue
 * (i18n/wizard.ts). Field names stay as the service names them (docs/service.md 2); only
 * labels, choices and guidance are translated. The rule messages come from the domain in
 * the wizard's language (i18n/rules.ts).
 */
import type { EstadoCivil, FieldPath } from '../../domain/submission.js';
import { CATALOGUE, type MessageKey, tr } from '../../i18n/index.js';

export type WizardLang = 'pt-BR' | 'en';
export type SectionId = 'proposal' | 'personal' | 'document' | 'address' | 'marital' | 'payout';
export type PayoutMode = 'pix' | 'bank' | 'both';
export type MenuAction = 'submit' | 'edit' | 'reveal' | 'save' | 'quit';

type Pair = readonly [en: string, pt: string];

const pick = (lang: WizardLang, pair: Pair): string => (lang === 'pt-BR' ? pair[1] : pair[0]);

/** Short label of a field (the summary). */
export function fieldLabel(lang: WizardLang, path: FieldPath): string {
  return tr(lang, `wizard.label.${path}`);
}

/** The question for a field: its label, then the guidance in brackets (when it has any). */
export function fieldQuestion(lang: WizardLang, path: FieldPath): string {
  const help = `wizard.help.${path}`;
  const extra = help in CATALOGUE.en ? tr(lang, help as MessageKey) : '';
  return extra ? `${fieldLabel(lang, path)} (${extra.replace(/^\((.*)\)$/, '$1')}):` : `${fieldLabel(lang, path)}:`;
}

export function sectionTitle(lang: WizardLang, id: SectionId): string {
  return tr(lang, `wizard.section.${id}`);
}

const ESTADO_CIVIL_LABELS: Record<EstadoCivil, Pair> = {
  SOLTEIRO: ['Single', 'Solteiro(a)'],
  CASADO: ['Married', 'Casado(a)'],
  DIVORCIADO: ['Divorced', 'Divorciado(a)'],
  VIUVO: ['Widowed', 'Viúvo(a)'],
  SEPARADO: ['Separated', 'Separado(a)'],
  UNIAO_ESTAVEL: ['Stable union', 'União estável'],
  SEPARADO_JUDICIALMENTE: ['Legally separated', 'Separado(a) judicialmente'],
  NAO_INFORMADO: ['Not stated', 'Não informado'],
  OUTROS: ['Other', 'Outros'],
};

const CHOICE_LABELS: Record<string, Pair> = {
  RG: ['RG (identity card)', 'RG (carteira de identidade)'],
  CNH: ["CNH (driver's licence)", 'CNH (carteira de motorista)'],
  CORRENTE: ['Checking account', 'Conta corrente'],
  POUPANCA: ['Savings account', 'Conta poupança'],
};

/** Readable label of a choice value (marital status, document or account type). */
export function choiceLabel(lang: WizardLang, value: string): string {
  const pair = ESTADO_CIVIL_LABELS[value as EstadoCivil] ?? CHOICE_LABELS[value];
  return pair ? pick(lang, pair) : value;
}

export function payoutLabel(lang: WizardLang, mode: PayoutMode): { name: string; description: string } {
  return { name: tr(lang, `wizard.payout.${mode}`), description: tr(lang, `wizard.payoutHow.${mode}`) };
}

/** The wizard's own texts, by their name in the catalogue without `wizard.`. */
export type TextKey = MessageKey extends infer K ? (K extends `wizard.${infer Name}` ? Name : never) : never;

/** A wizard text with `{name}` placeholders filled. */
export function t(lang: WizardLang, key: TextKey, values: Record<string, string | number> = {}): string {
  return tr(lang, `wizard.${key}` as MessageKey, values);
}

/** The key help under a list. */
export function listHelp(lang: WizardLang): string {
  return tr(lang, 'wizard.listHelp');
}
