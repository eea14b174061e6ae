/**
 * The package's own files (package.json, the bundled fixtures), found from wherever this
 * code runs: src/ under the tests, dist/ from tsc, or a chunk of the build's bundle.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The folder of econsig's package.json: the first one above this file. */
export function packageRoot(): string {
  if (root !== undefined) return root;
  const here = dirname(fileURLToPath(import.meta.url));
  for (let dir = here; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return (root = dir);
    if (dirname(dir) === dir) throw new Error(`econsig cannot find its package.json above ${here}`);
  }
}

/** A file of the package, e.g. `packageFile('fixtures', 'valid', 'pix-only.json')`. */
export function packageFile(...parts: string[]): string {
  return join(packageRoot(), ...parts);
}

/** econsig's version, from its package.json. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;
}
