/**
 * What a trigger may ask (sandbox/trigger.ts): checked by the sandbox on every request and by the
 * flag parsers of `sandbox trigger` before one is sent, so a bad `--set` or `--times` is refused
 * in the run's language. Imports nothing: the CLI loads it at start-up.
 */

/** A dotted path of plain names: never into an object's prototype. */
export const FIELD_PATH = /^(?!(?:.*\.)?(?:__proto__|constructor|prototype)(?:\.|$))[^.]+(?:\.[^.]+)*$/;

/** The most copies of one event a trigger sends (`--times`; cli.expectTimes says it). */
export const MAX_TIMES = 100;
