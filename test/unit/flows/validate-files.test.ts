import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/errors.js';
import { reportsExitCode, validateFiles } from '../../../src/flows/validate-files.js';
import { inEnglish } from '../in-english.js';

const fixture = (name: string): string => fileURLToPath(new URL(`../../../fixtures/${name}`, import.meta.url));
const now = new Date(2025, 5, 15, 12, 0, 0);
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'econsig-validate-'));
  mkdirSync(join(root, 'batch', 'sub'), { recursive: true });
  copyFileSync(fixture('valid/bank-only.json'), join(root, 'batch', '1-good.json'));
  copyFileSync(fixture('invalid/cep-too-short.json'), join(root, 'batch', '2-bad.json'));
  copyFileSync(fixture('valid/pix-only.json'), join(root, 'batch', 'sub', '3-good.json'));
  copyFileSync(fixture('warnings/needs-normalising.json'), join(root, 'warn.json'));
  copyFileSync(fixture('warnings/utf8-bom.json'), join(root, 'bom.json'));
  copyFileSync(fixture('invalid/not-json.json'), join(root, 'not-json.json'));
  writeFileSync(join(root, 'empty.json'), '');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const reports = (paths: string[], strict = false, keepValues = false) => validateFiles(paths, { cwd: root, stdin: {}, now, strict, keepValues });
const run = (...args: Parameters<typeof reports>) => reports(...args).map(inEnglish);
const summary = (reports: ReturnType<typeof run>) => reports.map((r) => [r.file, r.ok, r.exitCode]);

describe('validateFiles', () => {
  it('a folder: every file, sorted, each with its own result', () =>
    expect(summary(run(['batch']))).toEqual([
      [join('batch', '1-good.json'), true, 0],
      [join('batch', '2-bad.json'), false, 1],
      [join('batch', 'sub', '3-good.json'), true, 0],
    ]));

  it.each([
    [['bom.json'], ExitCode.ok],
    [['warn.json'], ExitCode.ok],
    [['batch'], ExitCode.invalid],
    [['missing.json', 'batch'], ExitCode.usage],
    [['batch', 'missing.json'], ExitCode.invalid],
    [['empty.json'], ExitCode.invalid],
    [['not-json.json'], ExitCode.invalid],
  ])('%j → batch exit %i (first failure in input order)', (paths, code) => expect(reportsExitCode(reports(paths))).toBe(code));

  it('a valid file reports its warnings, and the normalised value only with keepValues', () => {
    expect(run(['warn.json'])[0]?.value).toBeUndefined();
    const [report] = run(['warn.json'], false, true);
    expect(report?.ok).toBe(true);
    expect(report?.value?.pessoa.endereco.cep).toBe('01310100');
    expect(report?.warnings.map((w) => w.path)).toEqual(expect.arrayContaining(['idProposta', 'pessoa.endereco.cep', 'observacao']));
  });

  it('strict: warnings fail the file with exit 1 and no value', () => {
    const [report] = run(['warn.json'], true, true);
    expect(report).toMatchObject({ ok: false, exitCode: ExitCode.invalid, errors: [] });
    expect(report?.value).toBeUndefined();
    expect(run(['batch/1-good.json'], true)[0]?.ok).toBe(true);
  });

  it('an unreadable path is reported, not thrown, with exit 2', () =>
    expect(run(['missing.json'])).toEqual([
      { file: 'missing.json', ok: false, errors: [{ path: '(file)', message: 'missing.json does not exist' }], warnings: [], exitCode: ExitCode.usage },
    ]));

  it('`-` on a terminal is exit 2', () =>
    expect(validateFiles(['-'], { cwd: root, stdin: { isTTY: true }, now, strict: false })[0]?.exitCode).toBe(ExitCode.usage));
});
