// Bundles tsc's output (dist/) with its dependencies into dist/bundle/, split per command:
// each command's code and libraries still load only when that command runs, but as a few
// files instead of hundreds of modules (zod alone is ~80 ESM files, undici ~100 CJS ones).
// Measured on Node 20: `validate` of 10,000 files and `submit` start about 50 ms sooner.
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** What every bundle of the CLI shares: tsc's output with its dependencies, for Node 20.18+. */
const common = {
  entryPoints: [fileURLToPath(new URL('../dist/cli.js', import.meta.url))],
  bundle: true,
  platform: 'node',
  target: 'node20.18',
  logLevel: 'warning',
};

const out = fileURLToPath(new URL('../dist/bundle/', import.meta.url));
rmSync(out, { recursive: true, force: true });
await build({
  ...common,
  outdir: out,
  splitting: true,
  format: 'esm',
  chunkNames: 'chunks/[name]-[hash]',
  // CommonJS dependencies (undici, ajv through conf) call require() for Node's own modules.
  banner: { js: "import { createRequire as __econsigCreateRequire } from 'node:module'; const require = __econsigCreateRequire(import.meta.url);" },
});

// Node 20 only (bin/node20.js): the CLI as CommonJS files, which vm.Script can load with a
// V8 code cache; ES modules cannot be loaded that way. Each file is the body of a CommonJS
// wrapper function, so the loader hands V8 the text as read, with no copy. It is ASCII
// (esbuild escapes strings; comments go with the whitespace), so it is read as latin1 into
// a one-byte string: a single non-ASCII character would double it in memory.
// import.meta.url (used to find the package's own files) becomes the bundle's own URL.
//
// Two bundles of the same program: econsig.cjs has every command; econsig-validate.cjs has
// the commands' definitions (so parsing and help are the same) but only validate's code,
// 0.3 MB instead of 1.7 MB (undici, the prompts, conf and ora are the rest). bin/econsig.js
// picks it only when the command is certainly validate. V8 reads a code cache whole, so
// validate starts about 10 ms sooner with 8 MiB less memory.
const node20 = new URL('../dist/node20/', import.meta.url);
rmSync(node20, { recursive: true, force: true });

/** The command modules validate's bundle leaves out: each is a stub that cannot be reached. */
const onlyValidate = {
  name: 'only-validate',
  setup(build) {
    build.onResolve({ filter: /^\.\/commands\/[a-z-]+\.js$/ }, (args) =>
      args.path === './commands/validate.js' ? undefined : { path: args.path, namespace: 'left-out' },
    );
    build.onLoad({ filter: /.*/, namespace: 'left-out' }, (args) => ({
      contents: `export async function run() { throw new Error('internal: ${args.path} is not in the validate bundle'); }`,
      loader: 'js',
    }));
  },
};

for (const [name, plugins] of [
  ['econsig.cjs', []],
  ['econsig-validate.cjs', [onlyValidate]],
]) {
  const outfile = fileURLToPath(new URL(name, node20));
  await build({
    ...common,
    outfile,
    format: 'cjs',
    minifyWhitespace: true,
    legalComments: 'none',
    define: { 'import.meta.url': '__econsigBundleUrl' },
    banner: {
      js: "(function (exports, require, module, __filename, __dirname) {const __econsigBundleUrl = require('node:url').pathToFileURL(__filename).href;",
    },
    footer: { js: '\n})' },
    plugins,
  });
  const text = readFileSync(outfile);
  const wide = text.findIndex((byte) => byte > 0x7f);
  if (wide !== -1) {
    throw new Error(`${outfile} has a non-ASCII byte at ${wide}: ${text.subarray(Math.max(0, wide - 60), wide + 20).toString()}`);
  }
}
