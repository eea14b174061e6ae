// The V8 code caches of the Node 20 bundles in dist/node20/ (see bin/node20.js). Each is
// made by running its bundle as an operator does, so that what such runs compile is in the
// cache, then writing V8's cache of the script:
// - econsig.cjs: validate over every fixture, as text and as --json, and submit --dry-run;
// - econsig-validate.cjs: the two validate runs.
// Each training runs in a child process of its own with no NODE_OPTIONS, and leaves V8's
// flags alone (tuneHeap: false): V8 takes a cache only under the flags it was made with,
// and econsig loads it before it sets any.
import { spawnSync } from 'node:child_process';
import module from 'node:module';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);

if (typeof module.enableCompileCache === 'function') {
  // Node 22+ runs the ES modules with its own cache; a cache made here would not fit Node 20.
  process.exit(0);
}

if (process.argv[2] !== 'train') {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  for (const bundle of ['econsig', 'econsig-validate']) {
    const child = spawnSync(process.execPath, [here, 'train', bundle], { env, stdio: 'inherit' });
    if (child.status !== 0) process.exit(child.status ?? 1);
  }
  process.exit(0);
}

const bundle = process.argv[3];
const { loadBundle, bundleFiles } = await import('../bin/node20.js');
const { exports, script } = loadBundle(bundle);
const fixtures = (name) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });
const files = [fixtures('valid'), fixtures('invalid'), fixtures('warnings')];
const home = mkdtempSync(join(tmpdir(), 'econsig-code-cache-'));
const runs = [['validate', ...files], ['validate', ...files, '--json']];
if (bundle === 'econsig') runs.push(['submit', '--dry-run', ...files]);
for (const args of runs) {
  await exports.main(['node', 'econsig', ...args], {
    env: { ...process.env, NO_COLOR: '1', CI: '1', ECONSIG_HOME: home },
    stdout: sink(),
    stderr: sink(),
    tuneHeap: false,
  });
}
rmSync(home, { recursive: true, force: true });
writeFileSync(bundleFiles(bundle).cache, script.createCachedData());
