import { Chalk, type ChalkInstance } from 'chalk';
import type { Io } from './io.js';

/** Semantic colours: code names what a thing is, the theme decides how it looks. */
export interface Theme {
  error: (text: string) => string;
  warning: (text: string) => string;
  success: (text: string) => string;
  info: (text: string) => string;
  muted: (text: string) => string;
  strong: (text: string) => string;
  path: (text: string) => string;
  code: (text: string) => string;
}

export function createTheme(io: Pick<Io, 'color'>): Theme {
  const c: ChalkInstance = new Chalk({ level: io.color ? 1 : 0 });
  return {
    error: (t) => c.red(t),
    warning: (t) => c.yellow(t),
    success: (t) => c.green(t),
    info: (t) => c.cyan(t),
    muted: (t) => c.dim(t),
    strong: (t) => c.bold(t),
    path: (t) => c.cyan(t),
    code: (t) => c.magenta(t),
  };
}
