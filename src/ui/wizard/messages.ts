/**
 * The wizard's words in English and Brazilian Portuguese, from the one catalogue
 * (i18n/wizard.ts). Field names stay as the service names them (docs/service.md 2); only
 * labels, choices and guidance are translated. The rule messages come from the domain, said
 * in the wizard's language (i18n/rule.ts).
 */
import type { FieldPath } from '../../domain/submission.js';
import { type Lang, isMessageKey, say } from '../../i18n/index.js';

export type { Lang } from '../../i18n/index.js';
export type SectionId = 'proposal' | 'personal' | 'document' | 'address' | 'marital' | 'payout';
export type PayoutMode = 'pix' | 'bank' | 'both';
export type MenuAction = 'submit' | 'edit' | 'reveal' | 'save' | 'quit';

/** Short label of a field (the summary). */
export function fieldLabel(lang: Lang, path: FieldPath): string {
  return say(lang, `wizard.label.${path}`);
}

/** The question for a field: its label, then the guidance in brackets (when it has any). */
export function fieldQuestion(lang: Lang, path: FieldPath): string {
  const help = `wizard.help.${path}`;
  const extra = isMessageKey(help) ? say(lang, help) : '';
  return extra ? `${fieldLabel(lang, path)} (${extra.replace(/^\((.*)\)$/, '$1')}):` : `${fieldLabel(lang, path)}:`;
}

export function sectionTitle(lang: Lang, id: SectionId): string {
  return say(lang, `wizard.section.${id}`);
}

/** Readable label of a choice value (marital status, document or account type): one table for the wizard and the sheets; the value itself when it has none. */
export function choiceLabel(lang: Lang, value: string): string {
  const key = `choice.${value}`;
  return isMessageKey(key) ? say(lang, key) : value;
}

export function payoutLabel(lang: Lang, mode: PayoutMode): { name: string; description: string } {
  return { name: say(lang, `wizard.payout.${mode}`), description: say(lang, `wizard.payoutHow.${mode}`) };
}

/** The key help under a list. */
export function listHelp(lang: Lang): string {
  return say(lang, 'wizard.listHelp');
}
