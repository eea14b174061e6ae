/**
 * After the service refused what the wizard built (issue 14): say why in the clerk's
 * language, and offer to correct the field the service named, to try again when nothing
 * was created, to save to a file, or to leave (a draft is kept either way).
 */
import type { Outcome } from '../../domain/outcome.js';
import type { FieldPath } from '../../domain/submission.js';
import type { Io } from '../io.js';
import { writeWrapped } from '../wrap.js';
import type { WizardPrompts } from '../prompts.js';
import type { Theme } from '../theme.js';
import { fieldLabel, listHelp, t, type WizardLang } from './messages.js';

export type AfterRefusal = 'fix' | 'retry' | 'save' | 'leave';

export interface Refusal {
  outcome: Outcome;
  httpStatus: number | null;
  erros: readonly { codigo: string; msg: string }[];
  idProposta: string | null;
  message: string;
}

/** Nothing was created, so the same submission may simply be sent again. */
const RETRYABLE: ReadonlySet<Outcome> = new Set(['unavailable', 'rate_limited', 'unauthorized']);

/** Why, in the clerk's words (the service's own messages are on the result line just above). */
function refusalLines(lang: WizardLang, refusal: Refusal, theme: Theme): string[] {
  const status = refusal.httpStatus ?? '';
  const why: Partial<Record<Outcome, string>> = {
    rejected: t(lang, 'refusedRejected', { status }),
    not_found: t(lang, 'refusedNotFound', { id: refusal.idProposta ?? '' }),
    unauthorized: t(lang, 'refusedUnauthorized'),
    unavailable: t(lang, 'refusedUnavailable'),
    rate_limited: t(lang, 'refusedRateLimited'),
    unknown: t(lang, 'refusedUnknown'),
    skipped: t(lang, 'refusedSkipped'),
  };
  return [theme.error(why[refusal.outcome] ?? t(lang, 'refusedOther', { outcome: refusal.outcome }))];
}

/** Ask what to do now; `fields` are the ones the service named. */
export async function askAfterRefusal(options: {
  io: Pick<Io, 'stderr'>;
  lang: WizardLang;
  theme: Theme;
  prompts: WizardPrompts;
  refusal: Refusal;
  fields: readonly FieldPath[];
}): Promise<AfterRefusal> {
  const { lang, refusal, fields } = options;
  writeWrapped(options.io.stderr, `\n${refusalLines(lang, refusal, options.theme).join('\n')}\n\n`);
  const choices: Array<{ value: AfterRefusal; name: string }> = [];
  // "unknown": the contract may exist; sending again is for the guard and a person to decide.
  if (refusal.outcome !== 'unknown') {
    const named = fields.map((path) => fieldLabel(lang, path)).join(', ');
    choices.push({ value: 'fix', name: named ? t(lang, 'afterFix', { fields: named }) : t(lang, 'afterEdit') });
  }
  if (RETRYABLE.has(refusal.outcome)) choices.push({ value: 'retry', name: t(lang, 'afterRetry') });
  choices.push({ value: 'save', name: t(lang, 'menuSave') }, { value: 'leave', name: t(lang, 'afterLeave') });
  const help = listHelp(lang);
  return options.prompts.select<AfterRefusal>({ name: 'after-refusal', message: t(lang, 'menu'), choices, ...(help ? { help } : {}) });
}
