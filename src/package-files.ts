/**
 * The package's own files (package.json, the bundled fixtures), found from wherever this
 * code runs: src/ under the tests, dist/ from tsc, a chunk of the build's bundle, or the
 * single executable, which carries them as SEA assets named by their path in the package
 * (`fixtures/valid/pix-only.json`; scripts/build-exe.mjs) and has no such files on disk.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { getAsset, isSea } from 'node:sea';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The folder of econsig's package.json: the first one above this file. */
function packageRoot(): string {
  if (root !== undefined) return root;
  const here = dirname(fileURLToPath(import.meta.url));
  for (let dir = here; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return (root = dir);
    if (dirname(dir) === dir) throw new Error(`econsig cannot find its package.json above ${here}`);
  }
}

/**
 * Where a file of the package is on disk, e.g. `packageFilePath('fixtures', 'valid',
 * 'pix-only.json')`; undefined in the single executable, whose files are inside it.
 */
export function packageFilePath(...parts: string[]): string | undefined {
  return isSea() ? undefined : join(packageRoot(), ...parts);
}

/** The text of a file of the package, wherever the package is. */
export function packageFileText(...parts: string[]): string {
  return isSea() ? getAsset(parts.join('/'), 'utf8') : readFileSync(join(packageRoot(), ...parts), 'utf8');
}

/** econsig's version, from its package.json. */
export function packageVersion(): string {
  return (JSON.parse(packageFileText('package.json')) as { version: string }).version;
}

/**
 * What `--version` (and `econsig version`) says: the version on its first line (what a
 * script reads), then the Node it runs on, as `gh --version` names what it is (issue 24):
 * in the single executable the Node it carries.
 */
export function versionText(): string {
  return isSea() ? `${packageVersion()}\nsingle-file build on Node ${process.versions.node}` : `${packageVersion()}\nNode ${process.versions.node} (${process.platform} ${process.arch})`;
}
