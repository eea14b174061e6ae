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
import { type Lang, say } from '../../i18n/index.js';
import { fieldLabel, listHelp } from './messages.js';

export type AfterRefusal = 'fix' | 'retry' | 'save' | 'leave';

export interface Refusal {
  outcome: Outcome;
  httpStatus: number | null;
  erros: readonly { codigo: string; msg: string }[];
  idProposta: string | null;
}

/** Nothing was created, so the same submission may simply be sent again. */
const RETRYABLE: ReadonlySet<Outcome> = new Set(['unavailable', 'rate_limited', 'unauthorized']);

/** Why, in the clerk's words (the service's own messages are on the result line just above). */
function refusalLines(lang: Lang, refusal: Refusal, theme: Theme): string[] {
  const status = refusal.httpStatus ?? '';
  const why: Partial<Record<Outcome, string>> = {
    rejected: say(lang, 'wizard.refusedRejected', { status }),
    not_found: say(lang, 'wizard.refusedNotFound', { id: refusal.idProposta ?? '' }),
    unauthorized: say(lang, 'wizard.refusedUnauthorized'),
    unavailable: say(lang, 'wizard.refusedUnavailable'),
    rate_limited: say(lang, 'wizard.refusedRateLimited'),
    unknown: say(lang, 'wizard.refusedUnknown'),
    skipped: say(lang, 'wizard.refusedSkipped'),
  };
  return [theme.error(why[refusal.outcome] ?? say(lang, 'wizard.refusedOther', { outcome: refusal.outcome }))];
}

/** Ask what to do now; `fields` are the ones the service named. */
export async function askAfterRefusal(options: {
  io: Pick<Io, 'stderr'>;
  lang: Lang;
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
    choices.push({ value: 'fix', name: named ? say(lang, 'wizard.afterFix', { fields: named }) : say(lang, 'wizard.afterEdit') });
  }
  if (RETRYABLE.has(refusal.outcome)) choices.push({ value: 'retry', name: say(lang, 'wizard.afterRetry') });
  choices.push({ value: 'save', name: say(lang, 'wizard.menuSave') }, { value: 'leave', name: say(lang, 'wizard.afterLeave') });
  const help = listHelp(lang);
  return options.prompts.select<AfterRefusal>({ name: 'after-refusal', message: say(lang, 'wizard.menu'), choices, ...(help ? { help } : {}) });
}

/** After an accepted send (no --wait): where its approval will be seen, the commands on lines of their own. */
export function renderNextStep(io: Pick<Io, 'stderr' | 'lang'>, theme: Theme, idContrato: string): void {
  writeWrapped(io.stderr, `${theme.info('→')} ${say(io.lang, 'wizard.nextStep', { id: idContrato })}\n`);
}
