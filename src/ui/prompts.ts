/**
 * The prompts the wizard uses, behind one small interface (style.md habit 7) so tests can
 * replace them. The real ones are the single @inquirer packages, imported only when a prompt
 * is shown: the whole @inquirer/prompts bundle pulls in an editor prompt and iconv-lite
 * (performance-baselines.md). Prompts draw on stderr, so stdout stays for data.
 */
import { CancelledError, UsageError } from '../errors.js';
import type { Io } from './io.js';

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
  constructor(cause?: unknown) {
    super('Prompt cancelled.', cause === undefined ? undefined : { cause });
    this.name = 'PromptCancelledError';
  }
}

/** @inquirer/core's ExitPromptError (Ctrl-C) and AbortPromptError, matched by name: core stays unloaded. */
export function isPromptExit(error: unknown): boolean {
  return error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError');
}

async function guard<T>(ask: () => Promise<T>): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    if (isPromptExit(error)) throw new PromptCancelledError(error);
    throw error;
  }
}

/** The real prompts on the terminal of `io`; each package is imported on first use. */
export function createPrompts(io: Pick<Io, 'stdin' | 'stderr'>, dim: (text: string) => string = (t) => t): WizardPrompts {
  const context = { input: io.stdin, output: io.stderr };
  // The keys line under a list, in the wizard's words.
  const helpTip = (help: string | undefined) => (help ? { theme: { style: { keysHelpTip: () => dim(help) } } } : {});
  return {
    input: (options) =>
      guard(async () => {
        const { default: input } = await import('@inquirer/input');
        const hint = options.hint;
        return input(
          {
            message: options.message,
            ...(options.default !== undefined && options.default !== '' ? { default: options.default } : {}),
            ...(options.validate ? { validate: options.validate } : {}),
            ...(hint
              ? {
                  transformer: (value: string) => {
                    const text = hint(value);
                    return text ? `${value}  ${dim(text)}` : value;
                  },
                }
              : {}),
          },
          context,
        );
      }),
    select: (options) =>
      guard(async () => {
        const { default: select } = await import('@inquirer/select');
        return select(
          {
            message: options.message,
            choices: options.choices,
            default: options.default,
            pageSize: 12,
            ...helpTip(options.help),
          },
          context,
        );
      }),
    search: (options) =>
      guard(async () => {
        const { default: search } = await import('@inquirer/search');
        return search(
          {
            message: options.message,
            source: (term) => options.source(term ?? ''),
            default: options.default,
            pageSize: 8,
            ...helpTip(options.help),
          },
          context,
        );
      }),
    confirm: (options) =>
      guard(async () => {
        const { default: confirm } = await import('@inquirer/confirm');
        return confirm({ message: options.message, default: options.default }, context);
      }),
  };
}

/** One yes/no before sending to a real service: no sends nothing (exit 2), Ctrl-C exits 130. */
export async function confirmTarget(io: Pick<Io, 'stdin' | 'stderr'>, message: string): Promise<void> {
  let yes: boolean;
  try {
    yes = await createPrompts(io).confirm({ message, default: false });
  } catch (error) {
    if (error instanceof PromptCancelledError) throw new CancelledError('Cancelled; nothing was sent.');
    throw error;
  }
  if (!yes) throw new UsageError('Nothing was sent.');
}
