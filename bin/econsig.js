#!/usr/bin/env node
// The entry: check the Node version, turn on Node's compile cache, run the bundle, set the
// exit code. Everything else is in src/ (src/main.ts is the program's entry).
import { readFileSync } from 'node:fs';
import module from 'node:module';

// The locale's language, as src/i18n/index.ts langOf decides it (--lang is not looked at here).
const env = process.env;
const locale = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((value) => value !== undefined && value !== '');
const portuguese = locale !== undefined && /^pt/i.test(locale);

const NEEDED = [22, 19];
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < NEEDED[0] || (major === NEEDED[0] && minor < NEEDED[1])) {
  const version = `${NEEDED.join('.')}`;
  process.stderr.write(
    portuguese
      ? `o econsig precisa do Node.js ${version} ou mais novo; este é o Node.js ${process.versions.node}.\n`
      : `econsig needs Node.js ${version} or newer; this is Node.js ${process.versions.node}.\n`,
  );
  process.exit(2);
}

// Compiled code is cached between runs (in the OS temp folder); a cache that cannot be
// written only makes start-up slower, so its answer is not checked.
module.enableCompileCache?.();

// `--version` and `--help` alone are answered without commander, whose import alone takes
// start-up past 1.3x of bare node (docs/performance.md). The help text is commander's own,
// written at 80 columns by the build, in English; a narrower terminal, or a Portuguese locale,
// gets commander's rendering (src/cli-help.ts says it in the reader's language).
const args = process.argv.slice(2);
const only = args.length === 1 ? args[0] : undefined;
const fitsHelp = !process.stdout.isTTY || (process.stdout.columns ?? 80) >= 80;
const help = (only === '--help' || only === '-h') && fitsHelp && !portuguese ? readHelp() : undefined;
if (only === '--version' || only === '-V') {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${version}\n`);
} else if (help !== undefined) {
  process.stdout.write(help);
} else {
  // A run that ends without main's answer (a bug: it awaited something that never settles,
  // which Node ends with 13, or something called process.exit(0)) exits 70, econsig's code
  // for a bug; a deliberate exit (130 on a second Ctrl-C) keeps its code. Not by presetting
  // process.exitCode: commander's help() reads it to choose its own exit code.
  let answered = false;
  process.on('exit', (code) => {
    if (!answered && (code === 0 || code === 13)) process.exitCode = 70;
  });
  const { main } = await import('../dist/bundle/main.js');
  process.exitCode = await main(process.argv);
  answered = true;
}

/** dist/help.txt, or undefined when a build has none (commander then renders the help). */
function readHelp() {
  try {
    return readFileSync(new URL('../dist/help.txt', import.meta.url), 'utf8');
  } catch {
    return undefined;
  }
}
