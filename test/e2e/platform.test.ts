/**
 * The platform: the Node version gate of bin/econsig.js, and econsig installed as users
 * install CLIs (`npm pack`, then `npm install -g` of the tarball into a temporary prefix).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { binPath, repoRoot } from './run-cli.js';

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string; engines: { node: string } };

/** Run the built binary on this Node, made to report another version (an old Node stand-in). */
function runAs(version: string, args: string[]) {
  const standIn = `data:text/javascript,Object.defineProperty(process.versions,"node",{value:"${version}"})`;
  return spawnSync(process.execPath, ['--import', standIn, binPath, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH, CI: '1' } });
}

describe('the Node version gate', () => {
  it('engines and the gate name the same floor', () => {
    const gate = /const NEEDED = \[(\d+), (\d+)\]/.exec(readFileSync(binPath, 'utf8'));
    expect(gate).not.toBeNull();
    expect(pkg.engines.node).toBe(`>=${gate![1]}.${gate![2]}.0`);
  });

  it.each(['20.20.2', '22.18.0', '18.0.0'])('Node %s: one line naming both versions, exit 2', (version) => {
    const r = runAs(version, ['--version']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`econsig needs Node.js 22.19 or newer; this is Node.js ${version}.\n`);
  });

  it.each(['22.19.0', '24.0.0', '26.1.0'])('Node %s runs', (version) => {
    const r = runAs(version, ['--version']);
    expect(r.status).toBe(0);
    // The version (what a script reads), then the Node it runs on (issue 24).
    expect(r.stdout).toBe(`${pkg.version}\nNode ${version} (${process.platform} ${process.arch})\n`);
  });
});

describe('installed from the packed tarball', () => {
  const work = mkdtempSync(join(tmpdir(), 'econsig-pack-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('npm install -g of the tarball gives an econsig whose demo works from any folder', () => {
    const npm = { cwd: repoRoot, encoding: 'utf8' as const, env: { ...process.env, npm_config_loglevel: 'error', npm_config_fund: 'false', npm_config_audit: 'false' } };
    const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], npm)) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = packed[0]!.files.map((f) => f.path);
    expect(files).toContain('bin/econsig.js');
    expect(files).toContain('dist/bundle/main.js');
    expect(files.some((f) => f.startsWith('src/') || f.startsWith('test/'))).toBe(false);

    const prefix = join(work, 'prefix');
    execFileSync('npm', ['install', '-g', '--prefer-offline', '--prefix', prefix, join(work, packed[0]!.filename)], npm);
    const elsewhere = mkdtempSync(join(work, 'folder-'));
    const demo = spawnSync(join(prefix, 'bin', 'econsig'), ['demo', '--delay', '0'], {
      cwd: elsewhere,
      encoding: 'utf8',
      timeout: 30_000,
      env: { PATH: `${join(prefix, 'bin')}:${process.env.PATH}`, HOME: work, ECONSIG_HOME: join(work, 'home'), CI: '1', NO_COLOR: '1' },
    });
    expect(demo.stderr).toContain('Demo complete');
    expect(demo.status).toBe(0);
  }, 120_000);
});

describe('--help and --version without commander', () => {
  it('the help written by the build is what commander prints', async () => {
    const served = spawnSync(process.execPath, [binPath, '--help'], { encoding: 'utf8' });
    const { main } = (await import(join(repoRoot, 'dist', 'bundle', 'main.js'))) as { main: (argv: string[], o: object) => Promise<number> };
    let rendered = '';
    const stdout = { write: (text: string) => ((rendered += text), true), on: () => undefined, isTTY: false };
    const code = await main(['node', 'econsig', '--help'], { stdout, env: { CI: '1', NO_COLOR: '1' } });
    expect(code).toBe(0);
    expect(served.status).toBe(0);
    expect(served.stdout).toBe(rendered);
    expect(rendered).toContain('Usage: econsig');
  });
});
