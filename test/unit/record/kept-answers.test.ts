import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answerKeeper, KEPT_ANSWERS_FILE, recordKeptAnswers } from '../../../src/record/kept-answers.js';
import { openStore } from '../../../src/record/open.js';
import type { StoreNotice } from '../../../src/record/record.js';
import { SqliteStore } from '../../../src/record/sqlite.js';
import { UnsafeTargetError } from '../../../src/safe-file.js';
import { StorageError } from '../../../src/settings/home.js';
import { FakeStore } from '../flows/fakes.js';
import { answerOf, claimed } from './contract.js';

describe('answers kept aside when the store failed', () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'econsig-kept-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));
  const file = () => join(home, KEPT_ANSWERS_FILE);

  it('are appended as JSON lines to a 0600 file, then recorded by the next open of that store, which removes them', async () => {
    const store = await SqliteStore.open(home);
    const [a, b] = [await claimed(store, 'P1'), await claimed(store, 'P2')];
    const keeper = answerKeeper(home, store);
    keeper.keep(a, 'P1', answerOf('accepted', 'C-1'));
    keeper.keep(b, 'P2', answerOf('rejected', null, 422));
    await store.close();
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    const lines = readFileSync(file(), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toMatchObject([{ ref: a, idProposta: 'P1', answer: { outcome: 'accepted', idContrato: 'C-1' } }, { ref: b, idProposta: 'P2' }]);

    const notices: StoreNotice[] = [];
    const again = await openStore({ home, onNotice: (notice) => notices.push(notice) });
    try {
      expect(notices).toEqual([{ kind: 'answersRecorded', report: { file: file(), recorded: 2, left: 0 } }]);
      expect(existsSync(file())).toBe(false);
      const entries = (await again.history({ limit: 10 })).entries;
      expect(entries.map((e) => [e.idProposta, e.answer?.outcome, e.answer?.idContrato])).toEqual([
        ['P2', 'rejected', null],
        ['P1', 'accepted', 'C-1'],
      ]);
    } finally {
      await again.close();
    }
  });

  it('lines for another store, and a line cut short by a crash, stay in the file', async () => {
    const store = await SqliteStore.open(home);
    const ref = await claimed(store, 'P1');
    answerKeeper(home, { location: '/elsewhere/econsig.db' }).keep('other-ref', 'P9', answerOf('accepted', 'C-9'));
    answerKeeper(home, store).keep(ref, 'P1', answerOf('accepted', 'C-1'));
    writeFileSync(file(), `${readFileSync(file(), 'utf8')}{"store":"${store.location}","ref":"x","answ`, { flag: 'w' });
    try {
      expect(await recordKeptAnswers(home, store)).toEqual({ file: file(), recorded: 1, left: 2 });
      const left = readFileSync(file(), 'utf8').trim().split('\n');
      expect(left).toHaveLength(2);
      expect(left[0]).toContain('/elsewhere/econsig.db');
      expect(await recordKeptAnswers(home, store)).toEqual({ file: file(), recorded: 0, left: 2 });
    } finally {
      await store.close();
    }
  });

  it('a store that still refuses them: StorageError, and every line stays for the next time', async () => {
    const store = new FakeStore();
    const keeper = answerKeeper(home, store);
    keeper.keep('r1', 'P1', answerOf('accepted', 'C-1'));
    keeper.keep('r2', 'P2', answerOf('accepted', 'C-2'));
    const before = readFileSync(file(), 'utf8');
    store.failFrom.recordAnswer = 1;
    await expect(recordKeptAnswers(home, store)).rejects.toBeInstanceOf(StorageError);
    expect(readFileSync(file(), 'utf8')).toBe(before);
    expect(statSync(file()).mode & 0o777).toBe(0o600);
  });

  it('a link at the file is refused, never written through; nothing there: nothing to record', async () => {
    expect(await recordKeptAnswers(home, new FakeStore())).toBeNull();
    const victim = join(home, 'victim.txt');
    writeFileSync(victim, 'mine\n');
    symlinkSync(victim, file());
    expect(() => answerKeeper(home, new FakeStore()).keep('r', 'P1', answerOf('accepted', 'C-1'))).toThrow(UnsafeTargetError);
    expect(readFileSync(victim, 'utf8')).toBe('mine\n');
    expect(await recordKeptAnswers(home, new FakeStore())).toBeNull();
  });
});
