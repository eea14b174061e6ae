import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { say } from '../../src/i18n/index.js';
import { FileRefusedError, UnsafeTargetError, checkOutputPath, checkRegularFile, openPendingFile, readRegularFile, writeFileSafely } from '../../src/safe-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'econsig-safe-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const mode = (path: string): number => statSync(path).mode & 0o777;

describe('checkOutputPath', () => {
  it.each([
    ['nothing', (_: string) => undefined, false],
    ['a regular file', (p: string) => writeFileSync(p, 'x'), true],
  ])('%s there: allowed (%s)', (_, make, exists) => {
    const path = join(dir, 'out.csv');
    make(path);
    expect(checkOutputPath(path)).toBe(exists);
  });

  it.each([
    ['a symbolic link', (p: string) => symlinkSync(join(dir, 'elsewhere'), p)],
    ['a named pipe (FIFO)', (p: string) => execFileSync('mkfifo', [p])],
    ['a folder', (p: string) => mkdirSync(p)],
  ])('%s there: refused, exit 2, naming it', (kind, make) => {
    const path = join(dir, 'out.csv');
    make(path);
    const error = (() => {
      try {
        checkOutputPath(path);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(UnsafeTargetError);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UnsafeTargetError).exitCode).toBe(2);
    expect((error as Error).message).toBe(`will not write ${path}: it is ${kind}`);
  });

  it('a device: refused', () => {
    expect(() => checkOutputPath('/dev/null')).toThrow('will not write /dev/null: it is a device');
  });

  it('a path it cannot look at is left to the write, which says why', () => {
    expect(checkOutputPath(join(dir, 'no-such-folder', 'out.csv'))).toBe(false);
  });
});

describe('writeFileSafely', () => {
  it('a new file 0600, no temporary file left', () => {
    const path = join(dir, 'out.csv');
    writeFileSafely(path, 'a;b\r\n');
    expect(readFileSync(path, 'utf8')).toBe('a;b\r\n');
    expect(mode(path)).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['out.csv']);
  });

  it('replaces a file whole (a hard link to it keeps the old bytes); replace: false keeps it (EEXIST)', () => {
    const path = join(dir, 'out.csv');
    writeFileSync(path, 'old', { mode: 0o644 });
    execFileSync('ln', [path, join(dir, 'hard-link')]);
    expect(() => writeFileSafely(path, 'new', { replace: false })).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(readFileSync(path, 'utf8')).toBe('old');
    writeFileSafely(path, 'new');
    expect(readFileSync(path, 'utf8')).toBe('new');
    expect(mode(path)).toBe(0o600);
    expect(readFileSync(join(dir, 'hard-link'), 'utf8')).toBe('old');
    expect(readdirSync(dir).sort()).toEqual(['hard-link', 'out.csv']);
  });

  it('a link that appears while the file is written is refused at the rename, the temporary file removed', () => {
    const path = join(dir, 'out.csv');
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'untouched');
    const file = openPendingFile(path);
    file.write('rows');
    symlinkSync(victim, path);
    expect(() => file.commit()).toThrow(UnsafeTargetError);
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['out.csv', 'victim']);
  });

  it('discard: the target as it was, no temporary file', () => {
    const path = join(dir, 'out.csv');
    writeFileSync(path, 'before');
    const file = openPendingFile(path);
    file.write('half');
    file.discard();
    expect(readFileSync(path, 'utf8')).toBe('before');
    expect(readdirSync(dir)).toEqual(['out.csv']);
  });

  it('a named temporary file left by a crash is replaced; a link there is refused', () => {
    const path = join(dir, 'out.csv');
    const temporary = join(dir, 'out.parcial.csv');
    writeFileSync(temporary, 'stale rows');
    const file = openPendingFile(path, { temporary });
    file.write('fresh');
    file.commit();
    expect(readFileSync(path, 'utf8')).toBe('fresh');
    symlinkSync(join(dir, 'elsewhere'), temporary);
    expect(() => openPendingFile(path, { temporary })).toThrow(`will not write ${temporary}: it is a symbolic link`);
  });
});

describe('readRegularFile: a file named by a setting, read whole (issue 22)', () => {
  /** What readRegularFile says of `path`, in English; '' when it reads. */
  function refusal(path: string, maxBytes?: number): string {
    try {
      readRegularFile(path, maxBytes);
      return '';
    } catch (error) {
      if (!(error instanceof FileRefusedError)) throw error;
      expect(error.path).toBe(path);
      return say('en', error.problem);
    }
  }

  it('reads a regular file, through a link too', () => {
    const file = join(dir, 'ca.pem');
    writeFileSync(file, 'pem');
    symlinkSync(file, join(dir, 'link.pem'));
    expect(readRegularFile(join(dir, 'link.pem')).toString()).toBe('pem');
    expect(checkRegularFile(file)).toBe(true);
  });

  it('refuses a FIFO with no writer at once (the open does not wait for one)', () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(refusal(fifo)).toBe('it is a named pipe (FIFO), not a regular file');
    expect(() => checkRegularFile(fifo)).toThrow(FileRefusedError);
  });

  it('refuses a device, a link to one, and a folder', () => {
    symlinkSync('/dev/zero', join(dir, 'zero'));
    expect(refusal('/dev/zero')).toBe('it is a device, not a regular file');
    expect(refusal(join(dir, 'zero'))).toBe('it is a device, not a regular file');
    expect(refusal(dir)).toBe('it is a folder, not a regular file');
  });

  it('refuses a file past its limit, by its size and without reading it', () => {
    const big = join(dir, 'big');
    writeFileSync(big, Buffer.alloc(2048 + 1));
    expect(refusal(big, 2048)).toBe('it is larger than 2 KiB, more than a settings file holds');
    expect(refusal(big, 4096)).toBe('');
  });

  it("a missing file is the system's error (checkRegularFile: false)", () => {
    expect(() => readRegularFile(join(dir, 'missing'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    expect(checkRegularFile(join(dir, 'missing'))).toBe(false);
  });
});
