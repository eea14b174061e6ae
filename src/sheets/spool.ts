/**
 * Standard input kept in a temporary file, for the readers that need a file: an xlsx (its
 * zip is inspected before it is read, xlsx-zip.ts) and a sheet that submit reads twice
 * (flows/sheet-inputs.ts). Bounded: a pipe that never ends (/dev/zero) stops at the limit.
 */
import { mkdtempSync, openSync, closeSync, writeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SheetReadError } from './csv-reader.js';
import { XLSX_LIMITS } from './xlsx-zip.js';

export interface Spooled {
  path: string;
  /** Remove the file (and its folder); safe to call twice. */
  remove(): void;
}

/** Copy `chunks` to a new 0600 file in a 0700 folder of the system's temporary folder. */
export async function spoolToFile(chunks: AsyncIterable<Buffer | string>, limitBytes: number = XLSX_LIMITS.workbookBytes): Promise<Spooled> {
  const dir = mkdtempSync(join(tmpdir(), 'econsig-stdin-'));
  const path = join(dir, 'input');
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    const fd = openSync(path, 'wx', 0o600);
    try {
      let total = 0;
      for await (const chunk of chunks) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        total += bytes.length;
        if (total > limitBytes) throw new SheetReadError({ kind: 'stdin-too-large', limit: limitBytes });
        writeSync(fd, bytes);
      }
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    remove();
    throw error;
  }
  return { path, remove };
}
