/**
 * Ctrl-C and SIGTERM, for the entry (main) only. The first one aborts the run's signal:
 * nothing new is sent, what is in flight finishes and is recorded, and the command exits
 * 130 (docs/cli-contract.md "Exit codes"). A second one leaves at once with 130.
 *
 * On a terminal in raw mode (a spinner, a prompt) Ctrl-C is a byte, not a signal: the UI
 * turns that byte into a real SIGINT (ui/interrupt-key.ts, ui/prompts.ts), so every Ctrl-C
 * takes this one path.
 */
import { msg } from './i18n/index.js';
import { InterruptedError } from './errors.js';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * conf's dependency when-exit answers the first signal by raising the same one again at
 * once (the bundle replaces it, src/when-exit.ts; tsc's output keeps it); only a signal later
 * than this is a person pressing Ctrl-C a second time.
 */
const ECHO_MS = 300;

export interface TrapOptions {
  /** Told of the first signal (e.g. to update a spinner); the abort has already happened. */
  onFirst?: (signal: NodeJS.Signals) => void;
  /** How to leave at once; process.exit in the CLI. */
  exit?: (code: number) => void;
  now?: () => number;
}

/** Listen for SIGINT and SIGTERM until the returned function is called. */
export function trapSignals(abort: AbortController, options: TrapOptions = {}): () => void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const now = options.now ?? Date.now;
  let firstAt: number | undefined;
  const onSignal = (signal: NodeJS.Signals | undefined): void => {
    const name = signal ?? 'SIGINT';
    if (firstAt === undefined) {
      firstAt = now();
      if (!abort.signal.aborted) abort.abort(new InterruptedError(msg('cli.interrupted', { signal: name })));
      options.onFirst?.(name);
      return;
    }
    if (now() - firstAt > ECHO_MS) exit(130);
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  return () => {
    for (const signal of SIGNALS) process.off(signal, onSignal);
  };
}

/**
 * Ctrl-C read as a key (a terminal in raw mode: a prompt, a spinner) raised as the signal, so it
 * takes the one path above. On Windows, process.kill of its own process ends it at once
 * whoever listens (Node emulates only termination there), so the listeners are called here.
 */
export function raiseInterrupt(platform: NodeJS.Platform = process.platform): void {
  if (platform === 'win32') process.emit('SIGINT', 'SIGINT');
  else process.kill(process.pid, 'SIGINT');
}
