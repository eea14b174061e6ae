import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importJournal, legacyEntryOf } from '../../../src/record/import-journal.js';
import { openStore } from '../../../src/record/open.js';
import { SqliteStore } from '../../../src/record/sqlite.js';

const at = '2026-01-01T00:00:00.000Z';
const submission = { kind: 'submission', ref: 'r1', at, file: 'a.json', idProposta: 'P1', bodyHash: 'h', profile: 'default', baseUrl: 'http://x' };

describe('legacyEntryOf', () => {
  it.each([
    ['a submission', JSON.stringify(submission), 'submission'],
    ['an answer', JSON.stringify({ kind: 'answer', ref: 'r1', at, outcome: 'rejected', httpStatus: 422, idContrato: null, erros: [{ codigo: 'SVC_X', msg: 'm' }], message: 'no' }), 'answer'],
    ['a result', JSON.stringify({ kind: 'result', ref: null, at, idContrato: 'C', outcome: 'approved', status: null, reason: null }), 'result'],
    ['a delivery', JSON.stringify({ kind: 'delivery', at, webhookId: null, bodyHash: 'b', idContrato: 'C', idProposta: null, status: 'X', outcome: 'unknown', reason: null, verified: null, payload: {} }), 'delivery'],
  ])('%s is read', (_name, line, kind) => {
    expect(legacyEntryOf(line)?.kind).toBe(kind);
  });

  it('keys a submission on its base URL\'s service', () => {
    expect(legacyEntryOf(JSON.stringify({ ...submission, baseUrl: 'HTTP://LocalHost:4010/' }))).toMatchObject({ service: 'http://127.0.0.1:4010', baseUrl: 'HTTP://LocalHost:4010/' });
  });

  it.each([
    ['torn', '{"kind":"submission","ref":"r'],
    ['not JSON', 'hello'],
    ['an array', '[1]'],
    ['null', 'null'],
    ['kind only', '{"kind":"submission"}'],
    ['a number where text goes', JSON.stringify({ ...submission, idProposta: 7 })],
    ['erros not a list', JSON.stringify({ kind: 'answer', ref: 'r1', at, outcome: 'accepted', httpStatus: 202, idContrato: 'C', erros: 'x' })],
    ['a result that is not final', JSON.stringify({ kind: 'result', at, idContrato: 'C', outcome: 'pending' })],
    ['an unknown kind', '{"kind":"other"}'],
  ])('%s is skipped', (_name, line) => {
    expect(legacyEntryOf(line)).toBeNull();
  });
});

describe('importJournal', () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'econsig-import-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('is idempotent: an import cut short and run again adds nothing twice; an earlier .imported is kept', async () => {
    const lines = [JSON.stringify(submission), JSON.stringify({ kind: 'answer', ref: 'r1', at, outcome: 'accepted', httpStatus: 202, idContrato: 'C1', erros: [] })];
    writeFileSync(join(home, 'journal.jsonl.imported'), 'an earlier import\n');
    const store = await SqliteStore.open(home);
    try {
      await store.importLegacy(lines.map((l) => legacyEntryOf(l)!)); // the part done before a crash
      writeFileSync(join(home, 'journal.jsonl'), `${lines.join('\n')}\n\n`);
      expect(await importJournal(home, store)).toMatchObject({ lines: 2, imported: 2, skipped: 0, renamedTo: join(home, 'journal.jsonl.imported.2') });
      expect((await store.history({ limit: 10 })).entries.map((e) => e.answer?.idContrato)).toEqual(['C1']);
      expect(await importJournal(home, store)).toBeNull();
      expect(readdirSync(home).sort()).toEqual(['econsig.db', 'econsig.db-shm', 'econsig.db-wal', 'journal.jsonl.imported', 'journal.jsonl.imported.2']);
    } finally {
      await store.close();
    }
  });

  it('opening the store leaves a folder at journal.jsonl, the fence the journal builds fail on; the import skips it', async () => {
    writeFileSync(join(home, 'journal.jsonl'), `${JSON.stringify(submission)}\n`);
    const notices: unknown[] = [];
    const store = await openStore({ home, onNotice: (notice) => notices.push(notice) });
    await store.close();
    expect(notices).toMatchObject([{ kind: 'journalImported', report: { imported: 1 } }]);
    expect(lstatSync(join(home, 'journal.jsonl')).isDirectory()).toBe(true);
    expect(statSync(join(home, 'journal.jsonl')).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(home, 'journal.jsonl', 'README.txt'), 'utf8')).toMatch(/stops econsig versions older than the store/);
    // Opened again: the fence is no journal, nothing is imported or said.
    const again = await openStore({ home, onNotice: (notice) => notices.push(notice) });
    try {
      expect(await importJournal(home, again)).toBeNull();
      expect((await again.history({ limit: 10 })).entries).toHaveLength(1);
    } finally {
      await again.close();
    }
    expect(notices).toHaveLength(1);
  });
});
