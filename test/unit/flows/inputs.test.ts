import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { say } from '../../../src/i18n/index.js';
import { ExitCode } from '../../../src/errors.js';
import { FILE_PATH, MAX_FILE_BYTES, expandInputs, loadSource as loadFrom, parseDocument as parse } from '../../../src/flows/inputs.js';
import { inEnglish } from '../in-english.js';

const loadSource = (...args: Parameters<typeof loadFrom>) => inEnglish(loadFrom(...args));
const parseDocument = (...args: Parameters<typeof parse>) => inEnglish(parse(...args));

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'econsig-inputs-'));
  const files: Record<string, string> = {
    'batch/b.json': '{"n": "b"}',
    'batch/a.json': '{"n": "a"}',
    'batch/z.json': '{"n": "z"}',
    'batch/nested/c.json': '{"n": "c"}',
    'batch/nested/deeper/d.JSON': '{"n": "d"}',
    'batch/notes.txt': 'not a submission',
    'batch/nested/readme.md': '# no',
    'no-json/readme.txt': 'nothing here',
    'sheets/planilha.csv': 'a;b',
    'sheets/Lote.XLSX': 'zip',
    'sheets/lote.xlsx': 'zip',
    'sheets/planilha.resultados.csv': 'results',
    'sheets/planilha.resultados.parcial.csv': 'results so far',
    'sheets/lote.resultados.xlsx': 'results',
    'sheets/~$lote.xlsx': 'Excel lock file',
    'sheets/old.xls': 'not read',
    'sheets/one.json': '{}',
    'single.json': '{"n": "single"}',
    'bom.json': '\ufeff{"n": "bom"}',
    'empty.json': '',
    'blank.json': '  \n\t\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  mkdirSync(join(root, 'empty-folder'));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('expandInputs', () => {
  it('a folder gives every *.json below it, sorted by path, named as typed', () =>
    expect(expandInputs(['batch'], root).map((s) => s.file)).toEqual([
      join('batch', 'a.json'),
      join('batch', 'b.json'),
      join('batch', 'nested', 'c.json'),
      join('batch', 'nested', 'deeper', 'd.JSON'),
      join('batch', 'z.json'),
    ]));

  it('a folder gives its sheets too (*.csv, *.xlsx in any case), but not the results files of a run nor Excel\'s lock files', () =>
    expect(expandInputs(['sheets'], root).map((s) => s.file)).toEqual([
      join('sheets', 'Lote.XLSX'),
      join('sheets', 'lote.xlsx'),
      join('sheets', 'one.json'),
      join('sheets', 'planilha.csv'),
    ]));

  it('keeps the order of the paths given; only folders are sorted', () =>
    expect(expandInputs(['single.json', '-', 'batch/nested'], root).map((s) => s.file)).toEqual([
      'single.json',
      '-',
      join('batch/nested', 'c.json'),
      join('batch/nested', 'deeper', 'd.JSON'),
    ]));

  it('resolves against cwd and marks stdin with a null absolute path', () => {
    expect(expandInputs(['single.json'], root)).toEqual([{ file: 'single.json', absolute: join(root, 'single.json') }]);
    expect(expandInputs(['-'], root)).toEqual([{ file: '-', absolute: null }]);
  });

  it.each(['./batch/', 'batch//nested/../', '../' + 'REPLACED', '.'])('a folder typed as %s: every name is what path.join gives, absolute paths too', (typed) => {
    const path = typed.includes('REPLACED') ? `../${basename(root)}/batch` : typed;
    const cwd = typed === '.' ? join(root, 'batch') : root;
    const sources = expandInputs([path], cwd);
    expect(sources.length).toBeGreaterThan(3);
    for (const source of sources) {
      const rel = relative(resolve(cwd, path), source.absolute as string);
      expect(source.file).toBe(join(path, rel));
      expect(source.absolute).toBe(join(resolve(cwd, path), rel));
    }
  });

  it.each([
    ['no-json', /folder no-json has no \*\.json, \*\.csv or \*\.xlsx files/],
    ['empty-folder', /folder empty-folder has no \*\.json, \*\.csv or \*\.xlsx files/],
    ['missing.json', /missing\.json does not exist/],
    ['batch/missing', /batch\/missing does not exist/],
  ])('%s → a problem that loads as exit 2', (path, message) => {
    const [source, ...rest] = expandInputs([path], root);
    expect(rest).toEqual([]);
    expect(source?.problem && say('en', source.problem)).toMatch(message);
    const loaded = source && loadSource(source, {});
    expect(loaded).toEqual({ ok: false, file: path, exitCode: ExitCode.usage, errors: [{ path: FILE_PATH, message: expect.stringMatching(message) }] });
  });
});

describe('loadSource', () => {
  const load = (name: string) => loadSource({ file: name, absolute: join(root, name) }, {});

  it.each([
    ['single.json', { n: 'single' }],
    ['bom.json', { n: 'bom' }],
  ])('%s → parsed', (name, document) => expect(load(name)).toMatchObject({ ok: true, file: name, document }));

  it.each(['empty.json', 'blank.json'])('%s → exit 1, "file is empty"', (name) =>
    expect(load(name)).toEqual({ ok: false, file: name, exitCode: ExitCode.invalid, errors: [{ path: '(root)', message: expect.stringMatching(/^file is empty/) }] }));

  it('`-` with a terminal on stdin is refused without reading', () => {
    const loaded = loadSource({ file: '-', absolute: null }, { isTTY: true });
    expect(loaded).toEqual({ ok: false, file: '-', exitCode: ExitCode.usage, errors: [{ path: FILE_PATH, message: expect.stringMatching(/standard input is a terminal/) }] });
  });

  it('a file of exactly 1 MiB is read', () => {
    const name = 'exactly-1mib.json';
    const body = '{"n": 1}';
    writeFileSync(join(root, name), body + ' '.repeat(MAX_FILE_BYTES - body.length));
    expect(load(name)).toMatchObject({ ok: true, document: { n: 1 } });
  });

  it('a file one byte over 1 MiB is refused', () => {
    const name = 'over-1mib.json';
    writeFileSync(join(root, name), '{"n": 1}' + ' '.repeat(MAX_FILE_BYTES - 7));
    expect(load(name)).toMatchObject({ ok: false, exitCode: ExitCode.usage, errors: [{ path: FILE_PATH, message: expect.stringMatching(/at most 1 MiB/) }] });
  });

  // A 3 GiB sparse file: reading it whole would take seconds or fail with ERR_FS_FILE_TOO_LARGE
  // (another message), so a quick "at most 1 MiB" proves the size is checked before reading.
  it('a huge file is refused from its size, without reading it', () => {
    const name = 'huge.json';
    writeFileSync(join(root, name), '');
    truncateSync(join(root, name), 3 * 1024 ** 3);
    const started = performance.now();
    const loaded = load(name);
    expect(performance.now() - started).toBeLessThan(500);
    expect(loaded).toEqual({ ok: false, file: name, exitCode: ExitCode.usage, errors: [{ path: FILE_PATH, message: 'file is 3072.0 MiB; a submission is one small JSON object (at most 1 MiB)' }] });
  });

  // A named pipe has no size to check first; it is read to its end, but never past 1 MiB.
  it.each([
    ['a small document', 'printf \'{"n": "fifo"}\'', { ok: true, document: { n: 'fifo' } }],
    ['an endless stream', 'yes "{}" 2>/dev/null', { ok: false, exitCode: ExitCode.usage, errors: [{ path: FILE_PATH, message: expect.stringMatching(/is over 1 MiB/) }] }],
  ] as const)('a named pipe with %s', (_name, writer, want) => {
    const name = `pipe-${want.ok}`;
    expect(spawnSync('mkfifo', [join(root, name)]).status).toBe(0);
    const child = spawn('sh', ['-c', `${writer} > '${join(root, name)}'`], { stdio: 'ignore' });
    try {
      expect(load(name)).toMatchObject(want);
    } finally {
      child.kill();
    }
  });

  it('a folder passed as a file (race with expandInputs) is exit 2', () =>
    expect(loadSource({ file: 'batch', absolute: join(root, 'batch') }, {})).toMatchObject({ ok: false, exitCode: ExitCode.usage }));
});

describe('parseDocument', () => {
  it.each([
    ['{"a": 1,}', 'line 1, column 9'],
    ['{\n  "a": 1,\n  "b" 2\n}', 'line 3, column 7'],
    ['{\r\n  "a": "x\r\n', 'line 2'],
    ['\ufeff{\n"a": 1,\n}', 'line 3, column 1'], // positions count after the BOM
    ['[1, 2', 'line 1, column 6'],
    ['{"a": 1} trailing', 'line 1, column 10'],
    ['{"idProposta": "PROP-1001",\n  "pessoa": {\n}\n', 'line 4, column 1'], // fixtures/invalid/not-json.json
  ])('%j → not valid JSON at %s', (text, where) => {
    const loaded = parseDocument('f.json', text);
    expect(loaded).toMatchObject({ ok: false, exitCode: ExitCode.invalid });
    if (!loaded.ok) expect(loaded.errors).toEqual([{ path: '(root)', message: expect.stringContaining(`not valid JSON at ${where}`) }]);
  });

  // V8's "Unexpected token" message carries no "position N" on Node 20; parseDocument
  // finds the place itself, since a missing value is the commonest typo.
  it.each([
    ['{\n  "a": \n}', 'line 3, column 1'],
    ['{"a": tru}', 'line 1, column 10'],
  ])('%j → not valid JSON at %s (no position from V8)', (text, where) => {
    const loaded = parseDocument('f.json', text);
    if (!loaded.ok) {
      expect(loaded.errors[0]?.message).toContain(`at ${where}`);
      expect(loaded.errors[0]?.message).not.toContain('is not valid JSON');
    }
    else expect.unreachable();
  });

  it.each([
    ['\ufeff{"a": 1}', { a: 1 }],
    ['  {"a": 1}\n', { a: 1 }],
    ['null', null],
    ['[]', []],
  ])('%j → parsed', (text, document) => expect(parseDocument('f.json', text)).toMatchObject({ ok: true, document }));

  it('keeps a __proto__ key as data, not as the prototype', () => {
    const loaded = parseDocument('f.json', '{"__proto__": {"x": 1}}');
    expect(loaded.ok && Object.hasOwn(loaded.document as object, '__proto__')).toBe(true);
    expect(Object.hasOwn(Object.prototype, 'x')).toBe(false);
  });
});

describe('expandInputs and symbolic links', () => {
  it('follows a link to a file, skips a dangling one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'econsig-links-'));
    try {
      writeFileSync(join(dir, 'real.txt'), '{}');
      symlinkSync(join(dir, 'real.txt'), join(dir, 'linked.json'));
      symlinkSync(join(dir, 'missing.txt'), join(dir, 'dangling.json'));
      expect(expandInputs([dir], '/').map((s) => s.file)).toEqual([join(dir, 'linked.json')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('goes into folders (one named like a file too) but not into links to folders, on every Node version', () => {
    const dir = mkdtempSync(join(tmpdir(), 'econsig-links-'));
    try {
      mkdirSync(join(dir, 'odd.json', 'inner'), { recursive: true });
      writeFileSync(join(dir, 'odd.json', 'inner', 'x.json'), '{}');
      mkdirSync(join(dir, 'elsewhere'));
      writeFileSync(join(dir, 'elsewhere', 'y.json'), '{}');
      symlinkSync(join(dir, 'elsewhere'), join(dir, 'via-link'));
      symlinkSync(join(dir, 'elsewhere'), join(dir, 'via-link.json'));
      symlinkSync(dir, join(dir, 'elsewhere', 'loop')); // a cycle: must not be walked
      expect(expandInputs([dir], '/').map((s) => s.file)).toEqual([join(dir, 'elsewhere', 'y.json'), join(dir, 'odd.json', 'inner', 'x.json')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
