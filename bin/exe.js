// The entry of the single executable (scripts/build-exe.mjs builds it with Node's SEA): the
// same start as bin/econsig.js, with the package's files taken from inside the executable.
//
// They are SEA assets named by their path in the package (`dist/bundle/main.js`,
// `dist/bundle/chunks/validate-XXXX.js`, `fixtures/valid/pix-only.json`...). An executable's main
// script cannot import files, so the bundle's modules are handed to Node's module loader by
// two hooks (module.registerHooks) under URLs inside the executable's own path, which no real
// file can have; the bundle's lazy imports then load each command's chunks only when it runs,
// as in the npm install. src/package-files.ts reads the other assets.
import module from 'node:module';
import { getAsset } from 'node:sea';
import { pathToFileURL } from 'node:url';
import { versionText } from '../dist/package-files.js';
import { start } from './start.js';

const inside = pathToFileURL(`${process.execPath}/`).href;

module.registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier.startsWith(inside)) return { url: specifier, shortCircuit: true };
    // The bundle's own imports between chunks are relative (`./chunks/x.js`, `./y.js`).
    if (context.parentURL?.startsWith(inside) && specifier.startsWith('.')) {
      return { url: new URL(specifier, context.parentURL).href, shortCircuit: true };
    }
    return nextResolve(specifier, context);
  },
  load(url, context, nextLoad) {
    if (!url.startsWith(inside)) return nextLoad(url, context);
    return { format: 'module', source: getAsset(decodeURIComponent(url.slice(inside.length)), 'utf8'), shortCircuit: true };
  },
});

// Compiled code is cached between runs as with the npm install (bin/econsig.js).
module.enableCompileCache();

await start({
  version: versionText,
  readHelp: () => getAsset('dist/help.txt', 'utf8'),
  // require() of an ES module: the executable's main script has no file-based import().
  loadMain: () => module.createRequire(process.execPath)(`${inside}dist/bundle/main.js`),
});
