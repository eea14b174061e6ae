// Node 20 has no compile cache (module.enableCompileCache came in Node 22.1), and none for
// ES modules at all. The build therefore also writes the CLI as CommonJS bundles in
// dist/node20/ (the whole CLI, and one with only validate's code) and a V8 code cache of
// each, made by a training run (scripts/code-cache.mjs). Loading a bundle and its cache
// through vm.Script skips parsing and compiling what a run needs: on Node 20, `validate` of
// 10,000 files starts about 50 ms sooner.
//
// When a cache does not fit, V8 compiles from the source: slower, not wrong. V8 itself checks
// a cache against its own version (not Node's), its flags and the source's *length* only; so
// the cache's name carries the exact Node version (a Node upgrade that keeps V8's version
// finds no cache until `npm run build`), and the build makes bundle and caches together from
// an empty folder. A bundle edited by hand needs `npm run build` to match its caches again.
'use strict';
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const vm = require('node:vm');

/** A bundle of dist/node20/ ('econsig' or 'econsig-validate') and its code cache for this Node. */
function bundleFiles(name) {
  const file = join(__dirname, '..', 'dist', 'node20', `${name}.cjs`);
  return { file, cache: `${file}.node-${process.versions.node}.cache` };
}

/** Run a bundle; its exports, and the compiled script (to make a cache from). */
function loadBundle(name) {
  const { file, cache } = bundleFiles(name);
  // ASCII by construction (scripts/bundle.mjs): latin1 reads it straight into a one-byte string.
  const source = readFileSync(file, 'latin1');
  let cachedData;
  try {
    cachedData = readFileSync(cache);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(source, { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  return { exports: module.exports, script, cacheUsed: cachedData !== undefined && !script.cachedDataRejected };
}

exports.bundleFiles = bundleFiles;
exports.loadBundle = loadBundle;
