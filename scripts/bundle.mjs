// Bundles tsc's output (dist/) with its dependencies into dist/bundle/, split per command:
// each command's code and libraries still load only when that command runs (main.ts imports
// them lazily), but as a few files instead of hundreds of modules (zod alone is ~80 ESM
// files, undici ~100 CJS ones). See docs/performance.md for what it saves.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const out = fileURLToPath(new URL('../dist/bundle/', import.meta.url));
rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: [fileURLToPath(new URL('../dist/main.js', import.meta.url))],
  bundle: true,
  platform: 'node',
  target: 'node22.19',
  logLevel: 'warning',
  outdir: out,
  splitting: true,
  format: 'esm',
  chunkNames: 'chunks/[name]-[hash]',
  // pg loads its optional native binding only when NODE_PG_FORCE_NATIVE is set; econsig does not use it.
  external: ['pg-native'],
  // conf's writer removes its temporary files with when-exit, which ends the process on Windows
  // at a Ctrl-C: src/when-exit.ts says why and takes its place.
  alias: { 'when-exit': fileURLToPath(new URL('../dist/when-exit.js', import.meta.url)) },
  // CommonJS dependencies (undici, exceljs, pg) call require() for Node's own modules.
  banner: { js: "import { createRequire as __econsigCreateRequire } from 'node:module'; const require = __econsigCreateRequire(import.meta.url);" },
});
