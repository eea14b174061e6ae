/**
 * The one-time import of the retired `journal.jsonl` into the store (docs/cli-contract.md,
 * "The store"): streamed line by line (a 1 GB journal in bounded memory), each line
 * checked for the shape the journal wrote; torn, garbled and wrong-typed lines are
 * skipped and counted, never fatal. Then the file is renamed `journal.jsonl.imported`.
 * The store's unique keys make it idempotent: an import cut short runs again next time.
 *
 * In its place stays a folder, the fence (issue 22): the journal builds open
 * `journal.jsonl` to append before their first POST and fail on a folder (EISDIR, exit 70),
 * where with no file at all they would start a new journal and send everything again.
 */
import { msg, say } from '../i18n/index.js';
import { createReadStream, existsSync, lstatSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { FOLDER_MODE, writeFileSafely } from '../safe-file.js';
import { createInterface } from 'node:readline';
import { type AnswerRecord, type ImportReport, type LegacyEntry, recordedService, type Store } from './record.js';
import type { DeliveryRecord } from '../webhook/delivery.js';
import { ensureHome, StorageError, storageHint } from '../settings/home.js';

export const JOURNAL_FILE = 'journal.jsonl';
// Lines per transaction: large enough that commits (an fsync each) cost little, small
// enough that memory stays bounded and a cut-short import loses little work.
const BATCH_LINES = 1_000;

type Json = Record<string, unknown>;
const isStr = (v: unknown): v is string => typeof v === 'string';
const isStrOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';
const isFinal = (v: unknown): v is 'approved' | 'denied' | 'cancelled' => v === 'approved' || v === 'denied' || v === 'cancelled';
const isErros = (v: unknown): v is AnswerRecord['erros'] =>
  Array.isArray(v) && v.every((e) => typeof e === 'object' && e !== null && isStr((e as Json).codigo) && isStr((e as Json).msg));

/** One journal line as a store entry, or null when it is not one the journal could have written. */
export function legacyEntryOf(line: string): LegacyEntry | null {
  let e: Json;
  try {
    const value = JSON.parse(line) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    e = value as Json;
  } catch {
    return null;
  }
  switch (e.kind) {
    case 'submission':
      if (!isStr(e.ref) || !isStr(e.at) || !isStrOrNull(e.file ?? null) || !isStr(e.idProposta) || !isStr(e.bodyHash) || !isStr(e.profile) || !isStr(e.baseUrl)) return null;
      return {
        kind: 'submission',
        ref: e.ref,
        at: e.at,
        file: (e.file ?? null) as string | null,
        idProposta: e.idProposta,
        service: recordedService(e.baseUrl),
        bodyHash: e.bodyHash,
        profile: e.profile,
        baseUrl: e.baseUrl,
      };
    case 'answer': {
      const httpStatus = e.httpStatus ?? null;
      if (!isStr(e.ref) || !isStr(e.at) || !isStr(e.outcome) || !(httpStatus === null || typeof httpStatus === 'number')) return null;
      if (!isStrOrNull(e.idContrato ?? null) || !isErros(e.erros ?? []) || !isStrOrNull(e.message ?? null)) return null;
      const answer: AnswerRecord = {
        at: e.at,
        outcome: e.outcome,
        httpStatus,
        idContrato: (e.idContrato ?? null) as string | null,
        erros: (e.erros ?? []) as AnswerRecord['erros'],
        message: (e.message ?? null) as string | null,
      };
      return { kind: 'answer', ref: e.ref, answer };
    }
    case 'result':
      if (!isStr(e.at) || !isStr(e.idContrato) || !isFinal(e.outcome) || !isStrOrNull(e.status ?? null) || !isStrOrNull(e.reason ?? null)) return null;
      return { kind: 'result', result: { idContrato: e.idContrato, at: e.at, outcome: e.outcome, status: (e.status ?? null) as string | null, reason: (e.reason ?? null) as string | null } };
    case 'delivery': {
      const outcome = e.outcome;
      if (!isStr(e.at) || !isStrOrNull(e.webhookId ?? null) || !isStr(e.bodyHash) || !isStrOrNull(e.idContrato ?? null) || !isStrOrNull(e.idProposta ?? null)) return null;
      if (!isStrOrNull(e.status ?? null) || !isStrOrNull(e.reason ?? null) || !(isFinal(outcome) || outcome === 'unknown')) return null;
      const verified = e.verified ?? null;
      if (!(verified === null || typeof verified === 'boolean')) return null;
      const delivery: DeliveryRecord = {
        receivedAt: e.at,
        webhookId: (e.webhookId ?? null) as string | null,
        bodyHash: e.bodyHash,
        idContrato: (e.idContrato ?? null) as string | null,
        idProposta: (e.idProposta ?? null) as string | null,
        status: (e.status ?? null) as string | null,
        outcome,
        reason: (e.reason ?? null) as string | null,
        verified,
        payload: JSON.stringify(e.payload ?? null),
      };
      return { kind: 'delivery', delivery };
    }
    default:
      return null;
  }
}

/** A free name beside the journal: journal.jsonl.imported, else .imported.2, .3... */
function importedName(journal: string): string {
  let name = `${journal}.imported`;
  for (let n = 2; existsSync(name); n++) name = `${journal}.imported.${n}`;
  return name;
}

/**
 * Imports `$home/journal.jsonl` into `store` and renames it; null when there is none.
 * Throws StorageError (exit 74) when it cannot be read or renamed: nothing is dropped quietly.
 */
export async function importJournal(home: string, store: Store): Promise<ImportReport | null> {
  const journal = join(home, JOURNAL_FILE);
  // Nothing there, or the fence: nothing to import.
  if (lstatSync(journal, { throwIfNoEntry: false })?.isDirectory() !== false) return null;
  let lines = 0;
  let imported = 0;
  let skipped = 0;
  try {
    const input = createReadStream(journal, { encoding: 'utf8' });
    const reader = createInterface({ input, crlfDelay: Infinity });
    let batch: LegacyEntry[] = [];
    for await (const line of reader) {
      if (line.trim() === '') continue;
      lines++;
      const entry = legacyEntryOf(line);
      if (entry === null) {
        skipped++;
        continue;
      }
      batch.push(entry);
      if (batch.length >= BATCH_LINES) {
        await store.importLegacy(batch);
        imported += batch.length;
        batch = [];
      }
    }
    if (batch.length > 0) await store.importLegacy(batch);
    imported += batch.length;
  } catch (error) {
    if (error instanceof StorageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new StorageError(journal, msg('store.journalUnreadable'), code, storageHint(code, journal), error);
  }
  const renamedTo = importedName(journal);
  try {
    await rename(journal, renamedTo);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Another process imported the same journal at the same moment and renamed it first.
    if (code !== 'ENOENT') throw new StorageError(journal, msg('store.journalNotRenamed'), code, storageHint(code, journal), error);
  }
  return { journal, renamedTo, lines, imported, skipped };
}

/**
 * Leaves the fence at `$home/journal.jsonl` (see above): a folder, with a README saying why.
 * Throws StorageError (exit 74) when it cannot: a store used without it is open to a resend
 * by an older build.
 */
export async function fenceJournal(home: string): Promise<void> {
  const fence = join(home, JOURNAL_FILE);
  await ensureHome(home);
  try {
    await mkdir(fence, { recursive: false, mode: FOLDER_MODE });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && lstatSync(fence).isDirectory()) return;
    throw new StorageError(fence, msg('store.cannotFence'), code, storageHint(code, fence), error);
  }
  try {
    writeFileSafely(join(fence, 'README.txt'), say('en', 'store.fenceReadme'));
  } catch {
    // The folder alone is the fence; the README only explains it.
  }
}
