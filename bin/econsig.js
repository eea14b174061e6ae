#!/usr/bin/env node
// CommonJS on purpose (bin/package.json): an ES module entry makes node set up its ES module
// loader before anything runs, about 6 ms of every command; on Node 20 econsig needs none.
'use strict';
const nodeModule = require('node:module');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { isValidateCommand } = require('./command-line.js');

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
  const validate = isValidateCommand(args);
  // Until main answers: a run that ends without its answer (a bug) must not look like a
  // success. 70 is econsig's code for an internal error (src/ui/errors.ts).
  process.exitCode = 70;
  loadCli(validate)
    .then(({ main }) => main(process.argv))
    .then((code) => {
      process.exitCode = code;
      // validate holds nothing open once main returns, but node would still wait for V8's
      // background compiles of the run's hot functions before exiting (about 10 ms after a
      // large batch). Leave as soon as stdout and stderr have taken everything.
      if (validate) exitWhenWritten(code);
    });
}

function exitWhenWritten(code) {
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

/**
 * The ESM bundle, or on Node 20 a CommonJS one with its code cache (bin/node20.js): the one
 * with only validate's code when that is the command, else the whole CLI.
 */
function loadCli(validate) {
  if (typeof nodeModule.enableCompileCache !== 'function') {
    try {
      return Promise.resolve(require('./node20.js').loadBundle(validate ? 'econsig-validate' : 'econsig').exports);
    } catch (error) {
      // A build without it (or a copy of dist/bundle alone): the ES modules serve as well.
      if (error?.code !== 'ENOENT') throw error;
    }
  }
  return import('../dist/bundle/cli.js');
}
