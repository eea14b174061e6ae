/**
 * Keys typed ahead in the wizard reach the next fields in order (issue 24).
 *
 * Each @inquirer prompt makes its own readline on its input. Typed straight at stdin, a
 * burst like `Rua dos Andradas⏎1000⏎Sala 5⏎` was lost after the first field twice over: the
 * keys after the Enter came in the same chunk, so readline handed them to the prompt that was
 * closing; and a prompt on a terminal drops the keys that arrive before it is first drawn (on
 * purpose: @inquirer/core, its issue 1303). Between prompts the terminal was also back in line
 * mode, where it echoes what is typed.
 *
 * So the wizard's prompts read this stream instead: stdin stays in raw mode for the whole
 * wizard and every key is kept, in order. The open prompt is handed what comes up to an
 * Enter, then the Enter on its own once it has handled those keys (a search has its matches
 * by then); after an Enter that closes the prompt, the rest waits for the next one.
 */
import { PassThrough } from 'node:stream';
import type { InStream } from './io.js';
import { readRawKeys } from './interrupt-key.js';

export interface TypeAhead {
  /** What the prompts read (not a terminal to them: they start at once, dropping nothing). */
  readonly input: NodeJS.ReadableStream;
  /** A prompt is listening: hand it what is waiting. */
  opened(): void;
  /** It has settled: what comes next waits for the next prompt. */
  closed(): void;
  /** Forget the keys typed ahead and not yet handed (an answer refused, a menu that acts). */
  drop(): void;
  /** Give stdin back as it was. */
  stop(): void;
}

const isEnter = (byte: number): boolean => byte === 0x0d || byte === 0x0a;

/** Keys of `stdin` kept for the wizard's prompts; undefined when stdin is not a terminal. */
export function typeAhead(stdin: InStream): TypeAhead | undefined {
  const input = new PassThrough();
  let waiting = Buffer.alloc(0);
  let open = false;
  let handing = false;

  // Keys up to an Enter, or the Enter alone; the next piece once the prompt has handled this
  // one (setImmediate runs after the promise callbacks in which a prompt settles).
  const hand = (): void => {
    if (!open || handing || waiting.length === 0) return;
    const enter = waiting.findIndex(isEnter);
    const size = enter === -1 ? waiting.length : Math.max(enter, 1);
    const piece = waiting.subarray(0, size);
    waiting = waiting.subarray(size);
    handing = true;
    input.write(piece);
    setImmediate(() => {
      handing = false;
      hand();
    });
  };
  const stopKeys = readRawKeys(stdin, (chunk) => {
    waiting = Buffer.concat([waiting, chunk]);
    hand();
  });
  if (!stopKeys) return undefined;
  return {
    input,
    opened: () => {
      open = true;
      hand();
    },
    closed: () => {
      open = false;
    },
    drop: () => {
      waiting = Buffer.alloc(0);
    },
    stop: () => {
      stopKeys();
      input.end();
    },
  };
}
