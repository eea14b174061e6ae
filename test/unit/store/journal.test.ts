import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { followJournal, Journal, journalPath, readJournal, type JournalEntry, type JournalWrite } from '../../../src/store/journal.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'econsig-journal-'));
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(home, { recursive: true, force: true });
});

function delivery(i: number, pad = 0): JournalEntry {
  return {
    kind: 'delivery',
    at: new Date(0).toISOString(),
    webhookId: `msg_${i}`,
    bodyHash: String(i).padStart(64, '0'),
    idContrato: `C-${i}`,
    idProposta: null,
    status: 'APROVADO',
    outcome: 'approved',
    reason: null,
    verified: null,
    payload: { i, filler: 'x'.repeat(pad) },
  };
}

describe('Journal', () => {
  it('creates the file 0600 inside a 0700 folder', async () => {
    const nested = join(home, 'deeper');
    const j = await Journal.open(nested);
    await j.append(delivery(1));
    await j.close();
    expect(statSync(journalPath(nested)).mode & 0o777).toBe(0o600);
    expect(statSync(nested).mode & 0o777).toBe(0o700);
  });

  it('tightens an existing home that group or others can read to 0700 (as ensureHome does)', async () => {
    fs.chmodSync(home, 0o755);
    const j = await Journal.open(home);
    await j.close();
    expect(statSync(home).mode & 0o777).toBe(0o700);
  });

  it('tightens an existing journal that is group/world readable', async () => {
    writeFileSync(journalPath(home), '', { mode: 0o644 });
    const j = await Journal.open(home);
    await j.close();
    expect(statSync(journalPath(home)).mode & 0o777).toBe(0o600);
  });

  it('keeps every concurrent append, in one line each, in call order', async () => {
    const j = await Journal.open(home);
    await Promise.all(Array.from({ length: 500 }, (_, i) => j.append(delivery(i))));
    await j.close();
    const entries = readJournal(home);
    expect(entries.map((e) => (e.kind === 'delivery' ? e.webhookId : null))).toEqual(Array.from({ length: 500 }, (_, i) => `msg_${i}`));
  });

  it('close() waits for appends nobody awaited', async () => {
    const j = await Journal.open(home);
    for (let i = 0; i < 50; i++) void j.append(delivery(i, 5000));
    await j.close();
    expect(readJournal(home)).toHaveLength(50);
  });

  it('rejects appends after close', async () => {
    const j = await Journal.open(home);
    await j.close();
    await expect(j.append(delivery(1))).rejects.toThrow(/closed/);
  });

  it('skips a truncated last line, and the next writer does not glue onto it', async () => {
    const j = await Journal.open(home);
    await j.append(delivery(1));
    await j.append(delivery(2));
    await j.close();
    const full = readFileSync(journalPath(home), 'utf8');
    writeFileSync(journalPath(home), full.slice(0, full.length - 20), { mode: 0o600 });
    expect(readJournal(home).map((e) => (e as { webhookId: string }).webhookId)).toEqual(['msg_1']);

    const again = await Journal.open(home);
    await again.append(delivery(3));
    await again.close();
    expect(readJournal(home).map((e) => (e as { webhookId: string }).webhookId)).toEqual(['msg_1', 'msg_3']);
  });

  it('after a write that failed part-way (disk full), the next batch does not glue onto the fragment', async () => {
    let failNext = true;
    const write: JournalWrite = (fd, buf, offset) => {
      if (!failNext) return new Promise((resolve, reject) => fs.write(fd, buf, offset, buf.length - offset, null, (e, n) => (e ? reject(e) : resolve(n))));
      failNext = false;
      // Half the line reaches the file, then the disk is full.
      fs.writeSync(fd, buf, offset, Math.floor((buf.length - offset) / 2));
      return Promise.reject(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }));
    };
    const j = await Journal.open(home, { write });
    await expect(j.append(delivery(1))).rejects.toThrow(/ENOSPC/);
    await j.append(delivery(2));
    await j.append(delivery(3));
    await j.close();
    expect(readJournal(home).map((e) => (e as { webhookId: string }).webhookId)).toEqual(['msg_2', 'msg_3']);
  });

  it('skips garbled lines and lines that are not entries', () => {
    writeFileSync(journalPath(home), `${JSON.stringify(delivery(1))}\nnot json\n[1,2]\n{"no":"kind"}\n\n${JSON.stringify(delivery(2))}\n`);
    expect(readJournal(home)).toHaveLength(2);
  });

  it('reads a missing journal as empty', () => {
    expect(readJournal(join(home, 'nope'))).toEqual([]);
  });
});

describe('Journal across processes', () => {
  it('two processes appending at once produce whole lines only', async () => {
    // Children run the real module as tsc built it (npm test builds before it runs).
    const journalModule = new URL('../../../dist/store/journal.js', import.meta.url).href;
    const child = `
      import { Journal } from '${journalModule}';
      const [home, who, n] = process.argv.slice(2);
      const j = await Journal.open(home);
      const big = 'y'.repeat(Number(who) === 1 ? 70000 : 300);
      await Promise.all(Array.from({ length: Number(n) }, (_, i) =>
        j.append({ kind: 'delivery', at: '', webhookId: who + '-' + i, bodyHash: '', idContrato: null, idProposta: null,
          status: null, outcome: 'unknown', reason: null, verified: null, payload: { big } })));
      await j.close();
    `;
    writeFileSync(join(home, 'child.mjs'), child);
    const run = (who: number) =>
      new Promise<number | null>((resolve) => {
        const p = spawn(process.execPath, [join(home, 'child.mjs'), home, String(who), '400'], { stdio: 'inherit' });
        p.on('exit', resolve);
      });
    expect(await Promise.all([run(1), run(2)])).toEqual([0, 0]);

    const lines = readFileSync(journalPath(home), 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(800);
    const ids = lines.map((l) => (JSON.parse(l) as { webhookId: string }).webhookId);
    expect(new Set(ids).size).toBe(800);
    expect(ids.filter((id) => id.startsWith('1-'))).toHaveLength(400);
  }, 30_000);
});

describe('followJournal', () => {
  // The polls run on fake timers: advancing them runs every poll that would have come in
  // that time, synchronously, so "nothing was delivered" is known rather than hoped after a sleep.
  it('delivers existing entries with fromStart, then new ones, and stops on abort', async () => {
    const j = await Journal.open(home);
    await j.append(delivery(1));
    const seen: string[] = [];
    const ac = new AbortController();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    followJournal(home, (e) => seen.push((e as { webhookId: string }).webhookId), { signal: ac.signal, fromStart: true, intervalMs: 10 });
    expect(seen).toEqual(['msg_1']);
    await j.append(delivery(2));
    vi.advanceTimersByTime(10);
    expect(seen).toEqual(['msg_1', 'msg_2']);
    ac.abort();
    await j.append(delivery(3));
    vi.advanceTimersByTime(1000);
    expect(seen).toEqual(['msg_1', 'msg_2']);
    expect(vi.getTimerCount()).toBe(0);
    await j.close();
  });

  it('without fromStart sees only later entries; waits for a line\'s newline', async () => {
    const j = await Journal.open(home);
    await j.append(delivery(1));
    const seen: string[] = [];
    const ac = new AbortController();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    followJournal(home, (e) => seen.push((e as { webhookId: string }).webhookId), { signal: ac.signal, intervalMs: 10 });
    const line = JSON.stringify(delivery(2));
    appendFileSync(journalPath(home), line.slice(0, 30));
    vi.advanceTimersByTime(100);
    expect(seen).toEqual([]);
    appendFileSync(journalPath(home), `${line.slice(30)}\n`);
    vi.advanceTimersByTime(10);
    expect(seen).toEqual(['msg_2']);
    ac.abort();
    await j.close();
  });

  it('starts following a journal that does not exist yet', async () => {
    const seen: JournalEntry[] = [];
    const ac = new AbortController();
    followJournal(home, (e) => seen.push(e), { signal: ac.signal, intervalMs: 10 });
    const j = await Journal.open(home);
    await j.append(delivery(7));
    await waitFor(() => seen.length === 1);
    ac.abort();
    await j.close();
  });
});

async function waitFor(check: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}
