import { afterEach, describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/errors.js';
import { raiseInterrupt, trapSignals } from '../../src/signals.js';

const untraps: Array<() => void> = [];
afterEach(() => {
  for (const untrap of untraps.splice(0)) untrap();
});

function trap() {
  let clock = 1_000;
  const exits: number[] = [];
  const abort = new AbortController();
  untraps.push(trapSignals(abort, { exit: (code) => void exits.push(code), now: () => clock }));
  return { abort, exits, advance: (ms: number) => void (clock += ms) };
}

describe('trapSignals', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('the first %s aborts the run with an InterruptedError (exit 130); nothing exits', (signal) => {
    const { abort, exits } = trap();
    process.emit(signal, signal);
    expect(abort.signal.aborted).toBe(true);
    expect(abort.signal.reason).toBeInstanceOf(InterruptedError);
    expect((abort.signal.reason as InterruptedError).exitCode).toBe(130);
    expect(exits).toEqual([]);
  });

  it('the same signal raised again at once (when-exit does that) is not a second Ctrl-C', () => {
    const { exits, advance } = trap();
    process.emit('SIGINT', 'SIGINT');
    advance(5);
    process.emit('SIGINT', 'SIGINT');
    expect(exits).toEqual([]);
  });

  it('a second Ctrl-C or SIGTERM a moment later leaves at once with 130', () => {
    const { exits, advance } = trap();
    process.emit('SIGINT', 'SIGINT');
    advance(800);
    process.emit('SIGTERM', 'SIGTERM');
    expect(exits).toEqual([130]);
  });

  it('stops listening when untrapped', () => {
    const before = process.listenerCount('SIGINT');
    const untrap = trapSignals(new AbortController());
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    untrap();
    expect(process.listenerCount('SIGINT')).toBe(before);
  });
});

describe('raiseInterrupt (Ctrl-C read as a key)', () => {
  it('on Windows calls the listeners in-process: process.kill of itself would end it there', () => {
    const { abort } = trap();
    raiseInterrupt('win32');
    // Synchronously: a real signal would arrive later, from the system.
    expect(abort.signal.aborted).toBe(true);
  });

  it('elsewhere raises the real signal, which arrives as one', async () => {
    const { abort } = trap();
    raiseInterrupt('linux');
    await new Promise<void>((resolve) => abort.signal.addEventListener('abort', () => resolve(), { once: true }));
    expect(abort.signal.reason).toBeInstanceOf(InterruptedError);
  });
});
