/**
 * What the tests of people's text read: issues whose message is said in English (below ui/,
 * a message is a key and its values; src/i18n/index.ts `say`).
 */
import { type Message, say } from '../../src/i18n/index.js';

type English<T> = T extends { message: Message } ? Omit<T, 'message'> & { message: string } : T;

/** `result` with the messages of its `errors` and `warnings` said in English. */
export function inEnglish<T extends object>(result: T): { [K in keyof T]: T[K] extends ReadonlyArray<infer I> ? Array<English<I>> : T[K] } {
  const said = (issues: ReadonlyArray<{ message: Message }>) => issues.map((issue) => ({ ...issue, message: say('en', issue.message) }));
  const out: Record<string, unknown> = { ...(result as Record<string, unknown>) };
  for (const field of ['errors', 'warnings'] as const) {
    const issues = (result as Record<string, unknown>)[field];
    if (Array.isArray(issues)) out[field] = said(issues);
  }
  return out as never;
}
