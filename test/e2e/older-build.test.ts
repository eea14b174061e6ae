/**
 * The fence against older builds (issue 22, docs/store.md "The import of journal.jsonl"): the
 * journal build, the last commit before the store (f064232^), built from this repository's
 * history with its own package-lock and run with the Node that runs this test, on a home
 * this version has used: it sends nothing and exits non-zero. Without the fence it sends
 * everything again (the control). The build is cached in the temporary folder, keyed by
 * commit, so the suite builds it once per machine. A clone without that history fails here,
 * loudly: the test is not skipped.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './run-cli.js';
import { bankOnly, catalogueOf, cliEnv, startCountedSandbox, useScratch, writeJson } from './submit-harness.js';

/** The journal build: the parent of the commit that brought the store. */
const JOURNAL_BUILD = 'f064232^';

/** The folder of the built `commit` (its bin/econsig.js runs), built once and kept under the temporary folder. */
function builtAt(commit: string): string {
  let sha: string;
  try {
    sha = execFileSync('git', ['rev-parse', '--verify', '--quiet', `${commit}^{commit}`], { cwd: repoRoot, encoding: 'utf8' }).trim();
  } catch {
    throw new Error(`${commit} is not in this clone's history (a shallow clone?). This test builds it: fetch the whole history (git fetch --unshallow).`);
  }
  const folder = join(tmpdir(), `econsig-build-${sha}`);
  const done = join(folder, '.econsig-built');
  if (existsSync(done)) return folder;
  // Built beside, then renamed into place: a build cut short is never taken for a finished one.
  const building = `${folder}.${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  execFileSync('sh', ['-c', 'git archive "$1" | tar -x -C "$2"', 'sh', sha, building], { cwd: repoRoot });
  // npm ci installs the lock's exact dependencies and builds (its prepare script), with this Node.
  const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`, CI: '1' };
  const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: building, env, encoding: 'utf8' });
  if (npm.status !== 0) throw new Error(`building ${commit} (${sha}) failed:\n${npm.stdout}\n${npm.stderr}`);
  writeFileSync(join(building, '.econsig-built'), `${sha}\n`);
  try {
    renameSync(building, folder);
  } catch {
    // Another run built it meanwhile: theirs is as good.
    rmSync(building, { recursive: true, force: true });
  }
  return folder;
}

const scratch = useScratch();
let home: string;
let dir: string;
beforeEach(() => {
  ({ home, dir } = scratch);
});

describe('a home this version has used, then an older econsig on it', () => {
  it('the journal build sends nothing and exits non-zero; without the fence it would send every proposal again', async () => {
    const old = join(builtAt(JOURNAL_BUILD), 'bin', 'econsig.js');
    const { ids, catalogue } = catalogueOf(5);
    const sbx = await startCountedSandbox({ delayMs: 600_000, catalogue });
    const folder = join(dir, 'batch');
    mkdirSync(folder);
    for (const id of ids) writeJson(folder, `${id}.json`, bankOnly(id));
    const env = cliEnv(home, sbx.sandbox.url, sbx.sandbox.token);

    const current = await runCli(['submit', folder, '--json'], { env, timeoutMs: 30_000 });
    expect(current.code, current.stderr).toBe(0);
    expect(sbx.requests()).toBe(5);

    const older = await runCli(['submit', folder, '--json'], { env, program: [process.execPath, old], timeoutMs: 30_000 });
    expect(older.code, older.stderr).not.toBe(0);
    expect(older.signal).toBeNull();
    expect(older.stderr).toMatch(/EISDIR.*journal\.jsonl/);
    expect(sbx.requests(), 'POSTs after the older build ran').toBe(5);

    // The control: with the fence gone, the journal build sees no journal and sends all again.
    rmSync(join(home, 'journal.jsonl'), { recursive: true });
    const unfenced = await runCli(['submit', folder, '--json'], { env, program: [process.execPath, old], timeoutMs: 30_000 });
    expect(unfenced.stderr).not.toMatch(/EISDIR/);
    expect(sbx.requests()).toBe(10);
  }, 300_000);
});
