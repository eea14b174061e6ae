/**
 * Storage failures through the built binary (docs/cli-contract.md exit 74): a folder where the
 * database should be, a read-only home, a full disk before the POST (nothing sent) and
 * after it (the answer printed in full, contract id included, with a warning), and the
 * one-time import of an old journal.jsonl with torn and wrong-typed lines.
 *
 * The read-only and full-disk cases mount a small tmpfs (this needs root); where mount is
 * refused they are skipped, and say why.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { type Stub, cliEnv, parseSubmitJson, startCountedSandbox, startStub, useScratch } from './submit-harness.js';

const BANK_AND_PIX = 'fixtures/valid/bank-and-pix.json';

let home: string;
let dir: string;
const scratch = useScratch();
beforeEach(() => {
  ({ home, dir } = scratch);
});

/** A tmpfs of `kib` KiB at a fresh folder, or the reason it cannot be mounted. */
function mountTmpfs(kib: number): { path: string; unmount: () => void } | { skip: string } {
  const path = mkdtempSync(join(tmpdir(), 'econsig-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k,mode=0700`, 'tmpfs', path], { stdio: 'pipe' });
  } catch (error) {
    rmSync(path, { recursive: true, force: true });
    return { skip: `mount -t tmpfs refused (${String((error as { stderr?: Buffer }).stderr ?? error).trim()}); run as root to test a full or read-only disk` };
  }
  return {
    path,
    unmount: () => {
      execFileSync('umount', ['-l', path], { stdio: 'pipe' });
      rmSync(path, { recursive: true, force: true });
    },
  };
}
const probe = mountTmpfs(64);
const mountSkip = 'skip' in probe ? probe.skip : undefined;
if (!('skip' in probe)) probe.unmount();
if (mountSkip) console.warn(`store-failures: ${mountSkip}`);

/** Fills the file system holding `folder` until it refuses (ENOSPC). */
function fill(folder: string): void {
  const fd = openSync(join(folder, 'filler'), 'a');
  const chunk = Buffer.alloc(4096, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

const unmounts: Array<() => void> = [];
afterEach(() => {
  for (const u of unmounts.splice(0)) u();
});

describe('storage failures: exit 74, nothing sent', () => {
  it('a folder where the database should be: exit 74 naming the path and EISDIR; nothing sent', async () => {
    const sbx = await startCountedSandbox();
    mkdirSync(join(home, 'econsig.db'));
    const run = await runCli(['submit', BANK_AND_PIX, '--json'], { env: cliEnv(home, sbx.sandbox.url, sbx.sandbox.token) });
    expect(run.code, run.stderr).toBe(74);
    expect(run.stderr).toContain(join(home, 'econsig.db'));
    expect(run.stderr).toContain('EISDIR');
    expect(run.stderr).toMatch(/hint:/);
    expect(run.stderr).not.toMatch(/at .*\.js:\d+/);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, error: { exitCode: 74 } });
    expect(sbx.requests()).toBe(0);
    const history = await runCli(['history'], { env: { ECONSIG_HOME: home } });
    expect(history.code).toBe(74);
  });

  it.skipIf(mountSkip !== undefined)('a read-only home: exit 74 with EROFS; nothing sent', async () => {
    const sbx = await startCountedSandbox();
    const disk = mountTmpfs(1024);
    if ('skip' in disk) throw new Error(disk.skip);
    unmounts.push(disk.unmount);
    execFileSync('mount', ['-o', 'remount,ro', disk.path]);
    const run = await runCli(['submit', BANK_AND_PIX], { env: cliEnv(disk.path, sbx.sandbox.url, sbx.sandbox.token) });
    expect(run.code, run.stderr).toBe(74);
    expect(run.stderr).toContain('EROFS');
    expect(run.stderr).toContain(disk.path);
    expect(sbx.requests()).toBe(0);
  });

  it.skipIf(mountSkip !== undefined)('a full disk before the POST: exit 74 with ENOSPC; nothing sent', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const disk = mountTmpfs(512);
    if ('skip' in disk) throw new Error(disk.skip);
    unmounts.push(disk.unmount);
    const env = cliEnv(disk.path, sbx.sandbox.url, sbx.sandbox.token);
    // A store that exists and works, then the disk fills up.
    const first = await runCli(['submit', BANK_AND_PIX, '--json'], { env });
    expect(first.code, first.stderr).toBe(0);
    fill(disk.path);
    const file = join(dir, 'prop-2001.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync('fixtures/valid/bank-only.json', 'utf8')), idProposta: 'PROP-2001' }));
    const run = await runCli(['submit', file, '--json'], { env });
    expect(run.code, run.stderr).toBe(74);
    expect(run.stderr).toContain('ENOSPC');
    expect(sbx.requests()).toBe(1);
  });

  it.skipIf(mountSkip !== undefined)('a disk that fills while the POST is in flight: the answer is printed in full with a warning, exit 74', async () => {
    const disk = mountTmpfs(512);
    if ('skip' in disk) throw new Error(disk.skip);
    unmounts.push(disk.unmount);
    const contract = '3f1c1a52-9d5e-4a53-8f0e-2c6a4b7d9e10';
    const stub: Stub = await startStub((_req, res) => {
      fill(disk.path);
      res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ idContrato: contract, erros: [] }));
    });
    const run = await runCli(['submit', BANK_AND_PIX, '--json'], { env: cliEnv(disk.path, stub.url, 'sbx_stub_token_0123456789') });
    expect(stub.requests()).toBe(1);
    expect(run.code, run.stderr).toBe(74);
    const doc = parseSubmitJson(run.stdout) as ReturnType<typeof parseSubmitJson> & { store?: { ok: boolean; message: string } };
    expect(doc.results[0]).toMatchObject({ outcome: 'accepted', idContrato: contract, httpStatus: 202 });
    expect(doc.ok).toBe(false);
    expect(doc.store).toMatchObject({ ok: false });
    expect(run.stderr).toMatch(/warning:.*not .*in the store|only record/);
    expect(run.stderr).toContain('ENOSPC');
    // Not even the file of answers kept aside could take it: said plainly, with the command that records it.
    expect(doc.store).toMatchObject({ kept: 0, unrecorded: [{ idProposta: 'PROP-1001', outcome: 'accepted', idContrato: contract }] });
    expect(run.stderr).toContain(`econsig settle PROP-1001 --contract ${contract}`);
  });

  it('a store held by another process while the POST is in flight: the answer is kept aside (exit 74), and the next command records it', async () => {
    const contract = '5d2e7c1b-0a4f-4e8b-9c3d-6f1a2b3c4d5e';
    let locker: DatabaseSync | undefined;
    const stub: Stub = await startStub((_req, res) => {
      // Another process takes the write lock and keeps it past the store's 15 s busy timeout.
      locker = new DatabaseSync(join(home, 'econsig.db'));
      locker.exec('BEGIN IMMEDIATE');
      res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ idContrato: contract, erros: [] }));
    });
    const env = cliEnv(home, stub.url, 'sbx_stub_token_0123456789');
    const run = await runCli(['submit', BANK_AND_PIX, '--json'], { env, timeoutMs: 60_000 });
    locker?.exec('ROLLBACK');
    locker?.close();
    expect(run.code, run.stderr).toBe(74);
    const kept = join(home, 'unrecorded-answers.jsonl');
    const doc = parseSubmitJson(run.stdout) as ReturnType<typeof parseSubmitJson> & { store?: Record<string, unknown> };
    expect(doc.results[0]).toMatchObject({ outcome: 'accepted', idContrato: contract });
    expect(doc.store).toMatchObject({ ok: false, kept: 1, keptIn: kept, unrecorded: [] });
    expect(run.stderr).toContain(`1 answer the store could not take is kept in ${kept}`);
    expect(readFileSync(kept, 'utf8')).toContain(contract);

    const history = await runCli(['history', '--json'], { env });
    expect(history.code, history.stderr).toBe(0);
    expect(history.stderr).toContain(`recorded 1 answer kept in ${kept} when the store failed`);
    expect(JSON.parse(history.stdout).entries).toMatchObject([{ idProposta: 'PROP-1001', outcome: 'accepted', idContrato: contract }]);
    expect(existsSync(kept)).toBe(false);
    // The guard knows it now: the same file is reported from the store, not sent again.
    const again = await runCli(['submit', BANK_AND_PIX, '--json'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(parseSubmitJson(again.stdout).results[0]).toMatchObject({ outcome: 'accepted', idContrato: contract });
    expect(stub.requests()).toBe(1);
  }, 60_000);
});

describe('import of an old journal.jsonl', () => {
  it('imports every readable line once, counts torn and wrong-typed ones, renames the file; history answers for each contract', async () => {
    const at = '2026-01-02T03:04:05.000Z';
    const lines: string[] = [];
    for (let i = 0; i < 50; i++) {
      const ref = `ref-${i}`;
      lines.push(JSON.stringify({ kind: 'submission', ref, at, file: `p${i}.json`, idProposta: `PROP-${3000 + i}`, bodyHash: `h${i}`, profile: 'default', baseUrl: 'http://127.0.0.1:4010' }));
      lines.push(JSON.stringify({ kind: 'answer', ref, at, outcome: 'accepted', httpStatus: 202, idContrato: `C-${i}`, erros: [] }));
    }
    lines.push(JSON.stringify({ kind: 'delivery', at, webhookId: 'w1', bodyHash: 'b1', idContrato: 'C-7', idProposta: 'PROP-3007', status: 'APROVADO', outcome: 'approved', reason: null, verified: null, payload: { idContrato: 'C-7' } }));
    lines.push(JSON.stringify({ kind: 'result', ref: null, at, idContrato: 'C-8', outcome: 'denied', status: 'REPROVADO', reason: 'Margem' }));
    // Wrong-typed and garbled lines, and a torn last line (a crash mid-write).
    lines.push('{"kind":"submission"}', '{"kind":"answer","ref":1}', '[1,2,3]', 'not json at all', '{"kind":"martian","x":1}', '{"kind":"submission","ref":"r-torn","at":"20');
    writeFileSync(join(home, 'journal.jsonl'), `${lines.join('\n')}`);

    const run = await runCli(['history', '--json', '--limit', '100'], { env: { ECONSIG_HOME: home } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/imported 102 lines/);
    expect(run.stderr).toMatch(/6 unreadable lines skipped/);
    // The journal is gone; in its place, the fence against the journal builds (a folder).
    expect(lstatSync(join(home, 'journal.jsonl')).isDirectory()).toBe(true);
    expect(existsSync(join(home, 'journal.jsonl.imported'))).toBe(true);
    const entries = (JSON.parse(run.stdout) as { entries: Array<{ idProposta: string; idContrato: string; result: { outcome: string } | null }> }).entries;
    expect(entries).toHaveLength(50);
    const byContract = new Map(entries.map((e) => [e.idContrato, e]));
    for (let i = 0; i < 50; i++) expect(byContract.get(`C-${i}`)?.idProposta).toBe(`PROP-${3000 + i}`);
    expect(byContract.get('C-7')?.result?.outcome).toBe('approved');
    expect(byContract.get('C-8')?.result?.outcome).toBe('denied');

    // Once: a second command imports nothing and says nothing about it.
    const again = await runCli(['history', '--proposal', 'PROP-3001', '--json'], { env: { ECONSIG_HOME: home } });
    expect(again.stderr).not.toMatch(/imported/);
    expect((JSON.parse(again.stdout) as { entries: unknown[] }).entries).toHaveLength(1);
  });
});

describe('ECONSIG_HOME that is not a folder', () => {
  it.each([['config', 'set', 'concurrency', '3'], ['history'], ['submit', 'fixtures/valid/bank-only.json']])('%s: exit 74 naming the home and what to do, not a bug (70)', async (...args) => {
    const file = join(scratch.dir, 'home-is-a-file');
    writeFileSync(file, '');
    const run = await runCli(args, { env: { ECONSIG_HOME: file, ECONSIG_TOKEN: 'x' } });
    expect(run.code, run.stderr).toBe(74);
    expect(run.stderr).toContain(`cannot create or use the econsig home folder: ${file} (EEXIST)`);
    expect(run.stderr).toContain('is a file, not a folder. Set ECONSIG_HOME to a folder');
  });
});
