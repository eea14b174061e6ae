// What both entries do once they know Node fits: bin/econsig.js (the npm install) and
// bin/exe.js (the single executable). Answer a bare --version or --help without loading the
// program, else run it and set the exit code. Everything else is in src/ (src/main.ts).

/** Whether the locale speaks Portuguese, as src/i18n/index.ts langOf decides it (--lang is not looked at here). */
export function portugueseLocale(env = process.env) {
  const locale = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((value) => value !== undefined && value !== '');
  return locale !== undefined && /^pt/i.test(locale);
}

/**
 * `version()`: the text of `--version`. `readHelp()`: the help text the build wrote, or undefined.
 * `loadMain`: the program's module (dist/bundle/main.js), loaded only when a command runs.
 */
export async function start({ version, readHelp, loadMain }) {
  // `--version` and `--help` alone are answered without commander, whose import alone takes
  // start-up past 1.3x of bare node (docs/performance.md). The help text is commander's own,
  // written at 80 columns by the build, in English; a narrower terminal, or a Portuguese
  // locale, gets commander's rendering (src/cli-help.ts says it in the reader's language).
  const args = process.argv.slice(2);
  const only = args.length === 1 ? args[0] : undefined;
  const fitsHelp = !process.stdout.isTTY || (process.stdout.columns ?? 80) >= 80;
  const help = (only === '--help' || only === '-h') && fitsHelp && !portugueseLocale() ? readHelp() : undefined;
  if (only === '--version' || only === '-V') {
    process.stdout.write(`${version()}\n`);
    return;
  }
  if (help !== undefined) {
    process.stdout.write(help);
    return;
  }
  // A run that ends without main's answer (a bug: it awaited something that never settles,
  // which Node ends with 13, or something called process.exit(0)) exits 70, econsig's code
  // for a bug; a deliberate exit (130 on a second Ctrl-C) keeps its code. Not by presetting
  // process.exitCode: commander's help() reads it to choose its own exit code.
  let answered = false;
  process.on('exit', (code) => {
    if (!answered && (code === 0 || code === 13)) process.exitCode = 70;
  });
  const { main } = await loadMain();
  process.exitCode = await main(process.argv);
  answered = true;
}
