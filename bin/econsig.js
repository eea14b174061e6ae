#!/usr/bin/env node
// Node 22.1+ caches compiled code between runs; on Node 20, bin/node20.js does it for us.
import module from 'node:module';
import { readFileSync } from 'node:fs';

if (typeof module.enableCompileCache === 'function') {
  try {
    module.enableCompileCache();
  } catch {
    // A read-only cache folder must never stop the CLI.
  }
}

const args = process.argv.slice(2);
const only = args.length === 1 ? args[0] : undefined;
// The two commonest requests need no commander (start-up within 1.3x of bare node): the
// version from package.json, and the top-level help rendered at build time (80 columns,
// so only where that fits; commander renders it otherwise).
let cachedHelp;
if ((only === '--help' || only === '-h') && (!process.stdout.isTTY || (process.stdout.columns ?? 80) >= 80)) {
  try {
    cachedHelp = readFileSync(new URL('../dist/help.txt', import.meta.url), 'utf8');
  } catch {
    cachedHelp = undefined;
  }
}
if (only === '--version' || only === '-V') {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${version}\n`);
} else if (cachedHelp !== undefined) {
  process.stdout.write(cachedHelp);
} else {
  const { main } = await loadCli();
  process.exitCode = await main(process.argv);
}

/** The ESM bundle, or on Node 20 the CommonJS one with its code cache (bin/node20.js). */
async function loadCli() {
  if (typeof module.enableCompileCache !== 'function') {
    const { loadBundle } = await import('./node20.js');
    try {
      return loadBundle().exports;
    } catch (error) {
      // A build without it (or a copy of dist/bundle alone): the ES modules serve as well.
      if (error?.code !== 'ENOENT') throw error;
    }
  }
  return import('../dist/bundle/cli.js');
}
