/**
 * Keeping a clerk's work: a draft written without a question (after Ctrl-C, SIGTERM or a
 * refused send), and a file saved where the clerk says. Both 0600: they hold a worker's
 * personal data.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UnsafeTargetError, checkOutputPath, makeFolder, writeFileSafely } from '../../safe-file.js';
import type { Io } from '../io.js';
import type { WizardPrompts } from '../prompts.js';
import type { Theme } from '../theme.js';
import { type Lang, say } from '../../i18n/index.js';
import { writeWrapped } from '../wrap.js';

export interface Keeper {
  io: Pick<Io, 'stderr'>;
  lang: Lang;
  theme: Theme;
  now: Date;
}

const safeName = (id: unknown): string => (typeof id === 'string' && id !== '' ? id.replace(/[^\w.-]/g, '_') : 'submission');

/**
 * Write `submission` to a new file in `dir` (made 0700 when missing) and return its path.
 * Never asks. A draft that cannot be written is shown on the screen instead, so nothing
 * typed is lost; then undefined.
 */
export async function saveDraft(keeper: Keeper, submission: Record<string, unknown>, dir: string, replacing?: string): Promise<string | undefined> {
  const stamp = keeper.now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  const text = `${JSON.stringify(submission, null, 2)}\n`;
  try {
    // A draft resumed and left again: the new one replaces it, not one more beside it (issue 24).
    if (replacing !== undefined) {
      writeFileSafely(replacing, text);
      return replacing;
    }
    makeFolder(dir);
    for (let n = 1; ; n++) {
      const path = join(dir, `${safeName(submission.idProposta)}-draft-${stamp}${n > 1 ? `-${n}` : ''}.json`);
      try {
        writeFileSafely(path, text, { replace: false });
        return path;
      } catch (error) {
        // Something has this name already (a draft of the same second, a link, a FIFO): the next name.
        if (!(error instanceof UnsafeTargetError) && (error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  } catch (error) {
    keeper.io.stderr.write(`${keeper.theme.error(say(keeper.lang, 'wizard.draftFailed', { dir, cause: (error as Error).message }))}\n${text}`);
    return undefined;
  }
}

/** Ask where to save (default `fallback`, or `<idProposta>.json`), confirm a replacement, write 0600; returns the path. A link or a FIFO there is refused and the question asked again. */
export async function saveToChosenFile(keeper: Keeper, prompts: WizardPrompts, submission: Record<string, unknown>, fallback?: string): Promise<string> {
  const { lang } = keeper;
  for (;;) {
    const answer = await prompts.input({
      name: 'save-path',
      message: say(lang, 'wizard.savePath'),
      default: fallback ?? `${safeName(submission.idProposta)}.json`,
      validate: (raw) => (raw.trim() ? true : say(lang, 'wizard.required')),
    });
    const path = answer.trim();
    try {
      checkOutputPath(path);
      if (existsSync(path) && !(await prompts.confirm({ name: 'overwrite', message: say(lang, 'wizard.overwrite', { path }), default: false }))) continue;
      writeFileSafely(path, `${JSON.stringify(submission, null, 2)}\n`);
    } catch (error) {
      // A link or a FIFO there: said, and the question asked again.
      if (!(error instanceof UnsafeTargetError) || error.text === undefined) throw error;
      keeper.io.stderr.write(`${keeper.theme.error(say(lang, error.text))}\n`);
      continue;
    }
    keeper.io.stderr.write(`${keeper.theme.success(say(lang, 'wizard.saved', { path }))}\n`);
    return path;
  }
}

/** A draft without a question, and a line naming it (after a refused send). */
export async function keepDraft(keeper: Keeper, submission: Record<string, unknown>, dir: string, replacing?: string): Promise<void> {
  const path = await saveDraft(keeper, submission, dir, replacing);
  if (path) writeWrapped(keeper.io.stderr, `${keeper.theme.warning(say(keeper.lang, 'wizard.draftKept', { path }))}\n`);
}

/** A draft file of `dir` (as saveDraft names them), when `path` is one: the wizard resumed it. */
export function draftResumed(path: string | undefined, dir: string): string | undefined {
  if (path === undefined) return undefined;
  const absolute = resolve(path);
  return dirname(absolute) === resolve(dir) && DRAFT_NAME.test(basename(absolute)) ? absolute : undefined;
}

const DRAFT_NAME = /-draft-\d{8}T\d{6}(-\d+)?\.json$/;
