/** An Io for ui/ tests: no colour, stdout and stderr captured as text. */
import { PassThrough } from 'node:stream';
import type { Lang } from '../../../src/i18n/index.js';
import { createIo, type Io } from '../../../src/ui/io.js';

export function captureIo(lang: Lang, json = false): { io: Io; stdout: () => string; stderr: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const io = createIo({ env: { NO_COLOR: '1' }, stdin: new PassThrough(), stdout, stderr, json, lang });
  return { io, stdout: () => Buffer.concat(out).toString('utf8'), stderr: () => Buffer.concat(err).toString('utf8') };
}
