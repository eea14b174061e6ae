/**
 * Getting a token from a person or a pipe. Never echoes it; never waits on a terminal
 * that nobody will type EOF into (cli/cli #2536, docs/peer-clis.md §2.3).
 */
import { InterruptedError, UsageError } from '../errors.js';
import { msg, say } from '../i18n/index.js';
import type { InStream, Io } from './io.js';
import { keysTip } from './prompts.js';

/** What is read: the bearer token, or an OAuth2 client secret. */
export type Secret = 'token' | 'secret';

/** A token larger than this is surely the wrong input (a file piped by mistake). */
const MAX_TOKEN_BYTES = 64 * 1024;

/** Read stdin to EOF and trim. Fails at once when stdin is a terminal. */
export async function readTokenFromStdin(stdin: InStream, what: { flag: string; name: Secret; example: string } = { flag: '--with-token', name: 'token', example: 'echo $TOKEN | econsig auth login --with-token' }): Promise<string> {
  const name = msg(what.name === 'secret' ? 'auth.name_secret' : 'auth.name_token');
  if (stdin.isTTY === true) {
    throw new UsageError(msg('auth.stdinIsTerminal', { flag: what.flag, name }), msg('auth.stdinIsTerminalHint', { name, example: what.example }));
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    if (size > MAX_TOKEN_BYTES) {
      throw new UsageError(msg('auth.stdinTooLarge', { name }), msg('auth.stdinTooLargeHint', { name }));
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8').trim();
}

/** Masked prompt on the terminal (stderr, so stdout stays clean). Ctrl-C → InterruptedError (exit 130). */
export async function promptToken(io: Io, profile: string, secret: Secret = 'token'): Promise<string> {
  const { default: password } = await import('@inquirer/password');
  const lang = io.lang;
  const name = say(lang, secret === 'secret' ? 'auth.name_secret' : 'auth.name_token');
  try {
    const answer = await password(
      {
        message: say(lang, 'auth.paste', { name, profile }),
        mask: '*',
        // `ctrl+t toggle visibility` in the run's language.
        ...(lang === 'en' ? {} : { theme: { style: { keysHelpTip: keysTip(lang) } } }),
        validate: (value) => (value.trim() === '' ? say(lang, 'auth.pasteEmpty', { name }) : true),
      },
      { input: io.stdin, output: io.stderr },
    );
    return answer.trim();
  } catch (error) {
    // @inquirer/core throws ExitPromptError on Ctrl-C; matched by name to avoid importing core.
    if (error instanceof Error && error.name === 'ExitPromptError') throw new InterruptedError(msg('auth.cancelled'));
    throw error;
  }
}
