// Node 20 has no compile cache (module.enableCompileCache came in Node 22.1), and none for
// ES modules at all. The build therefore also writes the whole CLI as one CommonJS bundle,
// dist/node20/econsig.cjs, and a V8 code cache of it made by a training run
// (scripts/code-cache.mjs). Loading the two through vm.Script skips parsing and compiling
// what a run needs: on Node 20, `validate` of 10,000 files starts about 40 ms sooner.
// V8 checks the cache against its own version, its flags and the source, and compiles from
// the source when the cache does not fit: slower, never wrong.
'use strict';
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const vm = require('node:vm');

const bundleFile = join(__dirname, '..', 'dist', 'node20', 'econsig.cjs');
const cacheFile = `${bundleFile}.cache`;

/** Run the bundle; its exports, and the compiled script (to make a cache from). */
function loadBundle() {
  // ASCII by construction (scripts/bundle.mjs): latin1 reads it straight into a one-byte string.
  const source = readFileSync(bundleFile, 'latin1');
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(source, { filename: bundleFile, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(bundleFile), module, bundleFile, dirname(bundleFile));
  return { exports: module.exports, script, cacheUsed: cachedData !== undefined && !script.cachedDataRejected };
}

exports.bundleFile = bundleFile;
exports.cacheFile = cacheFile;
exports.loadBundle = loadBundle;
