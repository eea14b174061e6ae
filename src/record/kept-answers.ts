/**
 * Answers the store could not take (issue 22; docs/store.md "Failure handling"). An answer
 * the service gave, shown on screen, then refused by a failing store (a full disk, a lock
 * held too long, a database away) would leave its claim unanswered, read as unknown: an
 * accepted contract nobody can tell from a request that never arrived. So `submit` appends
 * it to `$ECONSIG_HOME/unrecorded-answers.jsonl` (JSON lines, 0600, append-only, plain to
 * read), and the next command that opens that store records it and removes the file. When
 * even that file cannot be written, the caller says so with the contract ids to record.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { msg } from '../i18n/index.js';
import { appendToFile } from '../safe-file.js';
import { StorageError, storageHint } from '../settings/home.js';
import type { AnswerRecord, KeptAnswersReport, Store } from './record.js';

export const KEPT_ANSWERS_FILE = 'unrecorded-answers.jsonl';

/** One line of the file: which store and claim the answer belongs to, and the answer. */
interface KeptAnswer {
  /** The store's location (record.ts, Store.location): answers are recorded into that store only. */
  store: string;
  ref: string;
  idProposta: string;
  answer: AnswerRecord;
}

/** Where a batch keeps the answers its store refuses. */
export interface AnswerKeeper {
  readonly file: string;
  /** Appends the answer of claim `ref`, synced; throws when the file cannot be written either. */
  keep(ref: string, idProposta: string, answer: AnswerRecord): void;
}

/** The keeper of `store`'s refused answers, in `home`. */
export function answerKeeper(home: string, store: Pick<Store, 'location'>): AnswerKeeper {
  const file = join(home, KEPT_ANSWERS_FILE);
  return {
    file,
    keep(ref, idProposta, answer) {
      const line: KeptAnswer = { store: store.location, ref, idProposta, answer };
      appendToFile(file, `${JSON.stringify(line)}\n`);
    },
  };
}

const isKept = (value: unknown, store: string): value is KeptAnswer => {
  const v = value as Partial<KeptAnswer> | null;
  return typeof v === 'object' && v !== null && v.store === store && typeof v.ref === 'string' && typeof v.answer === 'object' && v.answer !== null && typeof v.answer.outcome === 'string';
};

/**
 * Records into `store` the answers kept for it, then removes them from the file; null when
 * there is no file. The file is taken whole first (renamed), so an answer appended meanwhile
 * goes to a new file and waits for the next command. Throws StorageError (exit 74) when the
 * store still cannot take them or the file cannot be handled: they are put back, none lost.
 */
export async function recordKeptAnswers(home: string, store: Store): Promise<KeptAnswersReport | null> {
  const file = join(home, KEPT_ANSWERS_FILE);
  try {
    return await recordFrom(file, store);
  } catch (error) {
    if (error instanceof StorageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new StorageError(file, msg('store.keptNotRecorded'), code, storageHint(code, file), error);
  }
}

async function recordFrom(file: string, store: Store): Promise<KeptAnswersReport | null> {
  if (!lstatSync(file, { throwIfNoEntry: false })?.isFile()) return null;
  const taken = `${file}.${randomBytes(6).toString('hex')}.recording`;
  try {
    renameSync(file, taken);
  } catch (error) {
    // Another command took it first.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const lines = readFileSync(taken, 'utf8').split('\n').filter((line) => line.trim() !== '');
  const left: string[] = [];
  let recorded = 0;
  try {
    for (const [n, line] of lines.entries()) {
      let kept: unknown;
      try {
        kept = JSON.parse(line);
      } catch {
        kept = undefined;
      }
      if (!isKept(kept, store.location)) {
        left.push(line);
        continue;
      }
      try {
        await store.recordAnswer(kept.ref, kept.answer);
      } catch (error) {
        left.push(...lines.slice(n));
        throw error;
      }
      recorded++;
    }
  } finally {
    putBack(file, taken, left);
  }
  return { file, recorded, left: left.length };
}

/** The lines that stay go back into the file; the taken copy goes, unless they could not be put back. */
function putBack(file: string, taken: string, left: readonly string[]): void {
  try {
    if (left.length > 0) appendToFile(file, `${left.join('\n')}\n`);
  } catch (error) {
    // The taken copy goes back whole instead: recording a line again is harmless (an answer replaces itself).
    if (!existsSync(file)) renameSync(taken, file);
    throw error;
  }
  rmSync(taken, { force: true });
}
