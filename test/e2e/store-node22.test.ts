/**
 * On Node 22, node:sqlite prints an ExperimentalWarning when it loads; econsig drops that
 * one warning (src/record/sqlite.ts, loadSqlite) and no other. Runs the built binary under
 * Node 22 when this machine has one (ECONSIG_NODE22, or the cache the project's CI uses).
 */
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { binPath, repoRoot } from './run-cli.js';
import { useScratch } from './submit-harness.js';

const node22 = process.env.ECONSIG_NODE22 ?? '/root/.cache/econsig-node/22/node_modules/.bin/node';
const scratch = useScratch();

describe.skipIf(!existsSync(node22))('the store on Node 22', () => {
  it('history opens the store without the ExperimentalWarning; other warnings still show', () => {
    const run = spawnSync(node22, [binPath, 'history', '--json'], { cwd: repoRoot, env: { PATH: process.env.PATH, CI: '1', NO_COLOR: '1', ECONSIG_HOME: scratch.home }, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/ExperimentalWarning|SQLite is an experimental/);
    expect(JSON.parse(run.stdout)).toMatchObject({ entries: [] });
    // The filter is narrow: a warning of another kind, in the same process, is printed.
    const other = spawnSync(node22, ['--input-type=module', '-e', `await import(${JSON.stringify(`${repoRoot}/dist/record/sqlite.js`)}).then((m) => m.SqliteStore.open(${JSON.stringify(scratch.home)})).then((s) => s.close()); process.emitWarning('something else');`], { encoding: 'utf8' });
    expect(other.stderr).not.toMatch(/SQLite is an experimental/);
    expect(other.stderr).toContain('something else');
  });
});
