/**
 * On Node 20 econsig runs from dist/node20/econsig.cjs with the V8 code cache the build
 * made (bin/node20.js); Node 22+ runs the ES modules with Node's own cache. These tests
 * hold the Node 20 path to what makes it worth having, and to falling back cleanly.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './run-cli.js';

const node20 = typeof (module as { enableCompileCache?: unknown }).enableCompileCache !== 'function';

function nodeEval(code: string, cwd = repoRoot, env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH, ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.runIf(node20)('Node 20: the CommonJS bundle and its code cache', () => {
  it('V8 takes the cache the build made (it refuses one made under other flags)', () => {
    const r = nodeEval("const { loadBundle } = await import('./bin/node20.js'); console.log(loadBundle().cacheUsed);");
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('true');
  });

  it('is ASCII, so it is read straight into a one-byte string', () => {
    const bytes = readFileSync(join(repoRoot, 'dist/node20/econsig.cjs'));
    expect(bytes.findIndex((byte) => byte > 0x7f)).toBe(-1);
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
