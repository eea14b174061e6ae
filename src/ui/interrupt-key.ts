/**
 * While a spinner runs, the terminal is put in raw mode (so keys typed do not smear the
 * output), and then Ctrl-C arrives as the byte 0x03, not as a signal. This turns that
 * byte into a real SIGINT, so it takes the one path of src/signals.ts.
 *
 * Not ora's `discardStdin`: its helper (stdin-discarder) adds its listener with
 * prependListener, which does not start a stream that nobody has read yet, so the byte was
 * never seen and Ctrl-C did nothing during a batch (issue 14).
 */
import { raiseInterrupt } from '../signals.js';
import type { InStream } from './io.js';

const CTRL_C = 0x03;

interface TtyIn extends InStream {
  isRaw?: boolean;
  setRawMode?(mode: boolean): unknown;
}

/**
 * Every key of a terminal `stdin` to `onData`, in raw mode; returns the function that stops
 * and restores the terminal, or undefined when stdin is not a terminal.
 */
export function readRawKeys(stdin: InStream, onData: (chunk: Buffer) => void): (() => void) | undefined {
  const tty = stdin as TtyIn;
  if (tty.isTTY !== true || typeof tty.setRawMode !== 'function') return undefined;
  const wasRaw = tty.isRaw === true;
  const listener = (chunk: Buffer | string): void => onData(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  tty.setRawMode(true);
  tty.on('data', listener);
  tty.resume();
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    tty.off('data', listener);
    tty.setRawMode?.(wasRaw);
    // A flowing stdin keeps the process alive.
    tty.pause();
  };
}

/** Start watching `stdin` for Ctrl-C; returns the function that stops and restores the terminal. */
export function watchInterruptKey(stdin: InStream, raise: () => void = raiseInterrupt): () => void {
  return (
    readRawKeys(stdin, (bytes) => {
      if (bytes.includes(CTRL_C)) raise();
    }) ?? (() => undefined)
  );
}
