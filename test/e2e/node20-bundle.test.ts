/**
 * On Node 20 econsig runs from dist/node20/econsig.cjs with the V8 code cache the build
 * made (bin/node20.js); Node 22+ runs the ES modules with Node's own cache. These tests
 * hold the Node 20 path to what makes it worth having, and to falling back cleanly.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './run-cli.js';

const node20 = typeof (module as { enableCompileCache?: unknown }).enableCompileCache !== 'function';

function nodeEval(code: string, cwd = repoRoot, env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH, ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.runIf(node20)('Node 20: the CommonJS bundles and their code caches', () => {
  it.each(['econsig', 'econsig-validate'])('V8 takes the cache the build made for %s (it refuses one made under other flags)', (name) => {
    const r = nodeEval(`const { loadBundle } = await import('./bin/node20.js'); console.log(loadBundle('${name}').cacheUsed);`);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('true');
  });

  it.each(['econsig.cjs', 'econsig-validate.cjs'])('%s is ASCII, so it is read straight into a one-byte string', (name) => {
    const bytes = readFileSync(join(repoRoot, 'dist/node20', name));
    expect(bytes.findIndex((byte) => byte > 0x7f)).toBe(-1);
  });

  it('the validate bundle answers exactly as the whole CLI, as text and as --json', () => {
    const script = `
      const { loadBundle } = await import('./bin/node20.js');
      const { Writable } = await import('node:stream');
      const results = [];
      for (const name of ['econsig', 'econsig-validate']) {
        for (const json of [[], ['--json']]) {
          let out = '', err = '';
          const stdout = new Writable({ write(c, _e, done) { out += c; done(); } });
          const stderr = new Writable({ write(c, _e, done) { err += c; done(); } });
          const args = ['node', 'econsig', 'validate', 'fixtures/valid', 'fixtures/invalid', 'fixtures/warnings', ...json];
          const code = await loadBundle(name).exports.main(args, { stdout, stderr, env: { NO_COLOR: '1', CI: '1' }, tuneHeap: false });
          results.push({ name, code, out, err });
        }
      }
      console.log(JSON.stringify(results));`;
    const r = nodeEval(script);
    expect(r.stderr).toBe('');
    const [fullText, fullJson, validateText, validateJson] = JSON.parse(r.stdout) as Array<{ code: number; out: string; err: string }>;
    expect(fullText?.code).toBe(1);
    expect(fullText?.err).toContain('pessoa.endereco.cep');
    expect(validateText).toEqual({ ...fullText, name: 'econsig-validate' });
    expect(JSON.parse(fullJson?.out ?? '').files.length).toBeGreaterThan(30);
    expect(validateJson).toEqual({ ...fullJson, name: 'econsig-validate' });
  });

  it('a cache made under another Node version is not even read; the bundle still runs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'econsig-other-node-'));
    try {
      for (const part of ['bin', 'dist/node20', 'package.json', 'fixtures/valid']) cpSync(join(repoRoot, part), join(dir, part), { recursive: true });
      for (const name of ['econsig', 'econsig-validate']) {
        const ours = join(dir, 'dist/node20', `${name}.cjs.node-${process.versions.node}.cache`);
        renameSync(ours, join(dir, 'dist/node20', `${name}.cjs.node-20.0.0.cache`));
      }
      const r = nodeEval("const { loadBundle } = await import('./bin/node20.js'); console.log(loadBundle('econsig-validate').cacheUsed);", dir);
      expect(r.stdout.trim()).toBe('false');
      const run = spawnSync(process.execPath, ['bin/econsig.js', 'validate', 'fixtures/valid', '--json'], { cwd: dir, encoding: 'utf8' });
      expect(run.status).toBe(0);
      expect(JSON.parse(run.stdout).files).toHaveLength(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a run with V8 flags of its own still works: the cache is refused, the source compiled', () => {
    const r = spawnSync(process.execPath, ['--max-semi-space-size=8', 'bin/econsig.js', 'validate', 'fixtures/valid', '--json'], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).ok).toBe(true);
  });
});

describe('which command lines bin/econsig.js takes for validate (its own bundle on Node 20, and a prompt exit)', () => {
  const { isValidateCommand } = createRequire(import.meta.url)('../../bin/command-line.js') as { isValidateCommand: (args: string[]) => boolean };
  it.each([
    [['validate', 'a.json'], 'econsig-validate'],
    [['--json', 'validate', 'a.json'], 'econsig-validate'],
    [['--profile', 'homolog', '--no-color', 'validate'], 'econsig-validate'],
    [['--base-url=https://x', '--verbose', 'validate', '--strict'], 'econsig-validate'],
    // Only the whole CLI for anything else, or anything it is not sure of.
    [['--profile', 'validate', 'submit', 'a.json'], 'econsig'],
    [['--base-url', 'validate'], 'econsig'],
    [['submit', 'validate'], 'econsig'],
    [['--unknown', 'validate'], 'econsig'],
    [['--', 'validate'], 'econsig'],
    [['schema'], 'econsig'],
    [[], 'econsig'],
  ])('%j -> %s', (args, bundle) => expect(isValidateCommand(args)).toBe(bundle === 'econsig-validate'));
});

describe('a copy without dist/node20 runs from the ES modules', () => {
  it('validate works, with the same answer', () => {
    const dir = mkdtempSync(join(tmpdir(), 'econsig-esm-only-'));
    try {
      for (const part of ['bin', 'dist/bundle', 'dist/help.txt', 'package.json', 'fixtures/valid']) {
        cpSync(join(repoRoot, part), join(dir, part), { recursive: true });
      }
      const r = spawnSync(process.execPath, ['bin/econsig.js', 'validate', 'fixtures/valid', '--json'], { cwd: dir, encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout).files).toHaveLength(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
