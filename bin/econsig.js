#!/usr/bin/env node
// CommonJS on purpose (bin/package.json): an ES module entry makes node set up its ES module
// loader before anything runs, about 6 ms of every command; on Node 20 econsig needs none.
'use strict';
const nodeModule = require('node:module');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

// Node 22.1+ caches compiled code between runs; on Node 20, bin/node20.js does it for us.
if (typeof nodeModule.enableCompileCache === 'function') {
  try {
    nodeModule.enableCompileCache();
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
    cachedHelp = readFileSync(join(__dirname, '..', 'dist', 'help.txt'), 'utf8');
  } catch {
    cachedHelp = undefined;
  }
}
if (only === '--version' || only === '-V') {
  const { version } = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8'));
  process.stdout.write(`${version}\n`);
} else if (cachedHelp !== undefined) {
  process.stdout.write(cachedHelp);
} else {
  loadCli()
    .then(({ main }) => main(process.argv))
    .then((code) => {
      process.exitCode = code;
    });
}

/** The ESM bundle, or on Node 20 the CommonJS one with its code cache (bin/node20.js). */
function loadCli() {
  if (typeof nodeModule.enableCompileCache !== 'function') {
    try {
      const node20 = require('./node20.js');
      return Promise.resolve(node20.loadBundle(node20.bundleFor(args)).exports);
    } catch (error) {
      // A build without it (or a copy of dist/bundle alone): the ES modules serve as well.
      if (error?.code !== 'ENOENT') throw error;
    }
  }
  return import('../dist/bundle/cli.js');
}
