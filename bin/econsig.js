#!/usr/bin/env node
// The entry: check the Node version, turn on Node's compile cache, run the bundle, set the
// exit code (bin/start.js). Everything else is in src/ (src/main.ts is the program's entry).
import { readFileSync } from 'node:fs';
import module from 'node:module';
import { portugueseLocale, start } from './start.js';

const NEEDED = [22, 19];
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < NEEDED[0] || (major === NEEDED[0] && minor < NEEDED[1])) {
  const version = `${NEEDED.join('.')}`;
  process.stderr.write(
    portugueseLocale()
      ? `o econsig precisa do Node.js ${version} ou mais novo; este é o Node.js ${process.versions.node}.\n`
      : `econsig needs Node.js ${version} or newer; this is Node.js ${process.versions.node}.\n`,
  );
  process.exit(2);
}

// Compiled code is cached between runs (in the OS temp folder); a cache that cannot be
// written only makes start-up slower, so its answer is not checked.
module.enableCompileCache?.();

await start({
  // As src/package-files.ts versionText says it (the version, then the Node it runs on).
  version: () => `${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\nNode ${process.versions.node} (${process.platform} ${process.arch})`,
  readHelp,
  loadMain: () => import('../dist/bundle/main.js'),
});

/** dist/help.txt, or undefined when a build has none (commander then renders the help). */
function readHelp() {
  try {
    return readFileSync(new URL('../dist/help.txt', import.meta.url), 'utf8');
  } catch {
    return undefined;
  }
}
