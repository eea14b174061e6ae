/**
 * Running econsig: the one entry that ends the process. It parses argv with the program of
 * cli.ts, imports the chosen command's code, turns Ctrl-C and SIGTERM into an abort, renders
 * any failure once (the error boundary) and returns the exit code for bin/econsig.js to set.
 */
import { CommanderError } from '@commander-js/extra-typings';
import type { CommandModule, CommandName, Context, Dispatch } from './cli-inputs.js';
import { buildProgram } from './cli.js';
import { EconsigError, ExitCode } from './errors.js';
import { trapSignals } from './signals.js';
import { langOf } from './i18n/index.js';
import { createIo, type Io } from './ui/io.js';

// Literal imports, one per command: each loads only when its command runs, and the build's
// bundler can see (and split) every one of them.
const commandModules: Record<CommandName, () => Promise<unknown>> = {
  validate: () => import('./commands/validate.js'),
  template: () => import('./commands/template.js'),
  submit: () => import('./commands/submit.js'),
  watch: () => import('./commands/watch.js'),
  sandbox: () => import('./commands/sandbox.js'),
  trigger: () => import('./commands/trigger.js'),
  demo: () => import('./commands/demo.js'),
  auth: () => import('./commands/auth.js'),
  config: () => import('./commands/config.js'),
  history: () => import('./commands/history.js'),
  events: () => import('./commands/events.js'),
  settle: () => import('./commands/settle.js'),
  store: () => import('./commands/store.js'),
  runs: () => import('./commands/runs.js'),
  schema: () => import('./commands/schema.js'),
  completion: () => import('./commands/completion.js'),
  version: () => import('./commands/version.js'),
  doctor: () => import('./commands/doctor.js'),
};

export interface MainOptions {
  env?: Record<string, string | undefined>;
  stdin?: Io['stdin'];
  stdout?: Io['stdout'];
  stderr?: Io['stderr'];
}

/** Run econsig with `argv` (as process.argv) and return the exit code. Never throws. */
export async function main(argv: string[], options: MainOptions = {}): Promise<number> {
  const env = options.env ?? process.env;
  const streams = {
    stdin: options.stdin ?? process.stdin,
    stdout: options.stdout ?? process.stdout,
    stderr: options.stderr ?? process.stderr,
  };
  const closers: Array<() => unknown> = [];
  const abort = new AbortController();
  // The run's language, decided once: --lang is looked for by hand, as commander's own
  // errors and the help need it before argv is parsed.
  const lang = langOf(langFlag(argv), env);
  let io = createIo({ env, ...streams, lang });
  let untrap: (() => void) | undefined;

  // commander actions cannot return a value: the running command's exit code lands here.
  let result: number = ExitCode.ok;
  // A reader that goes away (`econsig watch --json | head -1`) must not crash the process
  // with an unhandled EPIPE: stop as on Ctrl-C, quietly; the store has everything.
  const onStreamError = (error: NodeJS.ErrnoException): void => {
    if (!abort.signal.aborted) abort.abort(new EconsigError(`Output closed (${error.code ?? error.message}).`, { exitCode: ExitCode.ok }));
  };
  // Left attached: a failed write is reported asynchronously, possibly after main returns.
  streams.stdout.on('error', onStreamError);
  streams.stderr.on('error', onStreamError);

  const dispatch: Dispatch = async (name, input, globals) => {
    io = createIo({ env, ...streams, json: globals.json, color: globals.color, verbose: globals.verbose, reveal: globals.reveal, lang });
    untrap ??= trapSignals(abort);
    const mod = (await commandModules[name]()) as CommandModule<typeof name>;
    const ctx: Context = { io, env, globals, argv: argv.slice(2), signal: abort.signal, defer: (close) => closers.push(close) };
    result = await mod.run(input, ctx);
    return result;
  };

  const program = buildProgram(
    dispatch,
    {
      writeOut: (text) => streams.stdout.write(text),
      writeErr: (text) => streams.stderr.write(text),
      // A usage error is said once, in the run's language, by renderFailure.
      outputError: () => undefined,
    },
    lang,
  );

  try {
    if (argv.length <= 2) {
      program.outputHelp({ error: true });
      return ExitCode.usage;
    }
    await program.parseAsync(argv);
    return result;
  } catch (error) {
    return await renderFailure(error, io, argv.includes('--json'));
  } finally {
    for (const close of closers.reverse()) {
      try {
        await close();
      } catch {
        // Closing is best effort; the command's own result stands.
      }
    }
    untrap?.();
  }
}

/** The value of `--lang` in argv (`--lang x` or `--lang=x`), if any. */
function langFlag(argv: string[]): string | undefined {
  const at = argv.findIndex((arg) => arg === '--lang' || arg.startsWith('--lang='));
  if (at < 0) return undefined;
  const arg = argv[at] as string;
  const value = arg.includes('=') ? arg.slice('--lang='.length) : argv[at + 1];
  // A value --lang refuses (its own usage error) leaves the locale to decide.
  return value !== undefined && /^(pt|en)/i.test(value) ? value : undefined;
}

const HELP_CODES = new Set(['commander.help', 'commander.helpDisplayed', 'commander.version']);

/** The one error boundary: message, cause and hint once; a stack only with --verbose. */
async function renderFailure(error: unknown, io: Io, json: boolean): Promise<number> {
  if (error instanceof CommanderError) {
    // `help <no such command>` prints the help as an error: commander's exitCode 1.
    if (error.code === 'commander.help' && error.exitCode === 1) return ExitCode.usage;
    // Help and version exit 0; every other commander error is a usage error (2), not 1.
    if (error.exitCode === 0 || HELP_CODES.has(error.code)) return ExitCode.ok;
    // Said here, in the run's language (commander's own output of it is silenced in main).
    const { renderUsageError } = await import('./ui/errors.js');
    return renderUsageError({ ...io, json }, error);
  }
  const { renderError } = await import('./ui/errors.js');
  return renderError(error, io);
}
