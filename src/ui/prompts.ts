/**
 * The prompts the wizard uses, behind one small interface (docs/design.md habit 7) so tests can
 * replace them. The real ones are the single @inquirer packages, imported only when a prompt
 * is shown: the whole @inquirer/prompts bundle pulls in an editor prompt and iconv-lite
 * (docs/performance.md). Prompts draw on stderr, so stdout stays for data.
 */
import { styleText } from 'node:util';
import { widthOf, wrapText } from './wrap.js';
import { InterruptedError, UsageError } from '../errors.js';
import { raiseInterrupt } from '../signals.js';
import { type Lang, type Message, type MessageKey, msg, say } from '../i18n/index.js';
import type { Io } from './io.js';
import type { TypeAhead } from './type-ahead.js';

export interface PromptChoice<V extends string> {
  value: V;
  name: string;
  description?: string;
}

/** `name` says what is asked (a field's dotted path, or a menu); the terminal ignores it, tests use it. */
export interface InputOptions {
  name?: string;
  message: string;
  /** Shown dimmed; Enter on an empty line accepts it. */
  default?: string;
  /** true, or the message shown under the field (the answer is kept for correction). */
  validate?: (value: string) => true | string;
  /** A live hint after what is typed, e.g. the bank's name for a bank code. */
  hint?: (value: string) => string | undefined;
}

export interface SelectOptions<V extends string> {
  name?: string;
  message: string;
  choices: readonly PromptChoice<V>[];
  default?: V;
  /** The key help under the list, e.g. translated; the prompt's own when absent. */
  help?: string;
  /** A menu that acts (Submit): keys typed before it is shown are dropped, it answers what is seen. */
  fresh?: boolean;
}

export interface SearchOptions<V extends string> {
  name?: string;
  message: string;
  /** Choices matching what is typed (all of them for an empty term). */
  source: (term: string) => readonly PromptChoice<V>[];
  default?: V;
  help?: string;
}

export interface ConfirmOptions {
  name?: string;
  message: string;
  default?: boolean;
}

export interface WizardPrompts {
  input(options: InputOptions): Promise<string>;
  select<V extends string>(options: SelectOptions<V>): Promise<V>;
  search<V extends string>(options: SearchOptions<V>): Promise<V>;
  confirm(options: ConfirmOptions): Promise<boolean>;
}

/** Ctrl-C (or an aborted signal) at a prompt; the wizard decides what to do with it. */
export class PromptCancelledError extends Error {
  /** What was typed in a text field when it was cancelled (the wizard keeps it in the draft). */
  partial?: string;
  constructor(cause?: unknown) {
    super('Prompt cancelled.', cause === undefined ? undefined : { cause });
    this.name = 'PromptCancelledError';
  }
}

/** @inquirer/core's ExitPromptError (Ctrl-C) and AbortPromptError, matched by name: core stays unloaded. */
export function isPromptExit(error: unknown): boolean {
  return error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError');
}

/**
 * A prompt reads the terminal in raw mode, where Ctrl-C is a key: inquirer rejects with
 * ExitPromptError. That key is raised as a real SIGINT, so it takes the one interrupt path
 * of src/signals.ts (the run's signal aborts, a second Ctrl-C leaves at once). A prompt
 * stopped by that signal (SIGTERM, say) rejects with AbortPromptError.
 */
async function guard<T>(ask: () => Promise<T>, raise: () => void): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    if (error instanceof Error && error.name === 'ExitPromptError') raise();
    if (isPromptExit(error)) {
      const cancelled = new PromptCancelledError(error);
      const partial = (error as { partial?: string }).partial;
      if (partial !== undefined) cancelled.partial = partial;
      throw cancelled;
    }
    throw error;
  }
}

// Only where the entry traps SIGINT (src/signals.ts); elsewhere (a library use, a test)
// the prompt's own cancellation is the whole story.
const raiseSigint = (): void => {
  if (process.listenerCount('SIGINT') > 0) raiseInterrupt();
};

export interface PromptsOptions {
  /** Dims the key help line. */
  dim?: (text: string) => string;
  /** The run's signal: a prompt open when it aborts (SIGTERM) is cancelled. */
  signal?: AbortSignal;
  /** What Ctrl-C at a prompt does besides cancelling it; a real SIGINT by default. */
  raise?: () => void;
  /** The keys the prompts read, kept while none is open (the wizard's); stdin itself otherwise. */
  keys?: TypeAhead;
}

/** inquirer's own words under its prompts, by the action it names. */
const KEY_ACTIONS: Readonly<Record<string, MessageKey>> = { 'toggle visibility': 'cli.keyToggleVisibility', navigate: 'cli.keyNavigate', select: 'cli.keySelect' };

/**
 * inquirer's key hints (`ctrl+t toggle visibility`, `↑↓ navigate`) in the run's language
 * (issue 24): a theme's `keysHelpTip`. An action this table does not know stays as written.
 */
export function keysTip(lang: Lang, dim: (text: string) => string = (text) => text): (keys: Array<[string, string]>) => string {
  return (keys) => keys.map(([key, action]) => `${key} ${dim(KEY_ACTIONS[action] ? say(lang, KEY_ACTIONS[action]) : action)}`).join(dim(' • '));
}

/** The real prompts on the terminal of `io`, their own words (yes/no, "no results") in its language; each package is imported on first use. */
export function createPrompts(io: Pick<Io, 'stdin' | 'stderr' | 'lang'>, options: PromptsOptions = {}): WizardPrompts {
  const dim = options.dim ?? ((text: string) => text);
  const raise = options.raise ?? raiseSigint;
  const keys = options.keys;
  const context = { input: keys?.input ?? io.stdin, output: io.stderr, ...(options.signal ? { signal: options.signal } : {}) };
  // A prompt made (it listens at once: its input is not a terminal), the keys waiting go to it.
  const listen = async <T>(prompt: Promise<T>): Promise<T> => {
    keys?.opened();
    try {
      return await prompt;
    } finally {
      keys?.closed();
    }
  };
  const lang = io.lang;
  // pt-BR: "Sim"/"Não" (s/n; y/n still work), and the search's empty list in Portuguese.
  const yes = say(lang, 'run.yes');
  const no = say(lang, 'run.no');
  const confirmTheme = lang === 'en' ? {} : { theme: { keywords: { yes, no, error: () => say(lang, 'run.yesOrNo', { yes, no }) } } };
  const noResults = say('en', 'run.noResults');
  const errorStyle = lang === 'en' ? {} : { error: (text: string) => (text === noResults ? say(lang, 'run.noResults') : text) };
  // A field's message under the prompt, broken between words at the terminal's width
  // (inquirer puts "> " before it; the terminal alone would break words in two).
  const columns = widthOf(io.stderr);
  // An answer refused: the keys typed ahead were meant for the next fields, not this one.
  const refused = (answer: true | string): true | string => {
    if (answer !== true) keys?.drop();
    return answer;
  };
  const fitted = (answer: true | string): true | string => (answer === true ? true : wrapText(answer, columns ? columns - 2 : undefined));
  // The keys line under a list, in the wizard's words.
  // Without the wizard's words, inquirer's own in the run's language (English: as inquirer writes them).
  const helpTip = (help: string | undefined) => (help ? { theme: { style: { keysHelpTip: () => dim(help) } } } : lang === 'en' ? {} : { theme: { style: { keysHelpTip: keysTip(lang, dim) } } });
  return {
    input: (options) =>
      guard(async () => {
        const { default: input } = await import('@inquirer/input');
        const hint = options.hint;
        const validate = options.validate;
        // The line as typed so far (inquirer renders it through the transformer at each key):
        // a field half-typed when Ctrl-C comes is kept in the draft (issue 24).
        let typed = '';
        try {
          return await listen(
            input(
              {
                message: options.message,
                ...(options.default !== undefined && options.default !== '' ? { default: options.default } : {}),
                ...(validate ? { validate: (value: string) => fitted(refused(validate(value))) } : {}),
                transformer: (value: string, { isFinal }: { isFinal: boolean }) => {
                  typed = value;
                  // Without a hint, the answer as inquirer's own theme shows it (@inquirer/core: cyan).
                  if (!hint) return isFinal ? styleText('cyan', value) : value;
                  const text = hint(value);
                  return text ? `${value}  ${dim(text)}` : value;
                },
              },
              context,
            ),
          );
        } catch (error) {
          if (typed !== '' && error instanceof Error) (error as Error & { partial?: string }).partial = typed;
          throw error;
        }
      }, raise),
    select: (options) =>
      guard(async () => {
        const { default: select } = await import('@inquirer/select');
        if (options.fresh) keys?.drop();
        return listen(select(
          {
            message: options.message,
            choices: options.choices,
            default: options.default,
            pageSize: 12,
            ...helpTip(options.help),
          },
          context,
        ));
      }, raise),
    search: (options) =>
      guard(async () => {
        const { default: search } = await import('@inquirer/search');
        return listen(search(
          {
            message: options.message,
            source: (term) => options.source(term ?? ''),
            default: options.default,
            pageSize: 8,
            ...(lang === 'en' ? helpTip(options.help) : { theme: { style: { ...errorStyle, keysHelpTip: options.help ? () => dim(options.help as string) : keysTip(lang, dim) } } }),
          },
          context,
        ));
      }, raise),
    confirm: (options) =>
      guard(async () => {
        const { default: confirm } = await import('@inquirer/confirm');
        return listen(confirm({ message: options.message, default: options.default, ...confirmTheme }, context));
      }, raise),
  };
}

/** One yes/no before sending to a real service; no sends nothing (exit 2), Ctrl-C exits 130. */
export async function confirmTarget(io: Pick<Io, 'stdin' | 'stderr' | 'lang'>, question: Message, signal?: AbortSignal): Promise<void> {
  let yes: boolean;
  try {
    yes = await createPrompts(io, signal ? { signal } : {}).confirm({ message: say(io.lang, question), default: false });
  } catch (error) {
    if (error instanceof PromptCancelledError) throw new InterruptedError(msg('run.interruptedNothingSent'));
    throw error;
  }
  if (!yes) throw new UsageError(msg('run.nothingSent'));
}
