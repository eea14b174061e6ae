/**
 * The wizard's words in English and Brazilian Portuguese, from the one catalogue
 * (i18n/wizard.ts). Field names stay as the service names them (docs/service.md 2); only
 * labels, choices and guidance are translated. The rule messages come from the domain in
 * the wizard's language (i18n/rules.ts).
 */
import type { FieldPath } from '../../domain/submission.js';
import { CATALOGUE, type MessageKey, tr } from '../../i18n/index.js';

export type WizardLang = 'pt-BR' | 'en';
export type SectionId = 'proposal' | 'personal' | 'document' | 'address' | 'marital' | 'payout';
export type PayoutMode = 'pix' | 'bank' | 'both';
export type MenuAction = 'submit' | 'edit' | 'reveal' | 'save' | 'quit';

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

/** Readable label of a choice value (marital status, document or account type): one table for the wizard and the sheets. */
export { choiceLabel } from '../../i18n/index.js';

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
