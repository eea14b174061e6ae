import type { Io } from './io.js';

/** Text a script reads as it is (a completion script, profile names, the version): on stdout. */
export function writeText(io: Pick<Io, 'stdout'>, text: string): void {
  io.stdout.write(text);
}
