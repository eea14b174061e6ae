/**
 * Flag value parsers: each throws commander's InvalidArgumentError, which exits 2. commander
 * passes on only its message, into its own: so the message is the catalogue key of what was
 * expected, which the error boundary says in the run's language (ui/errors.ts usageMessage).
 */
import { InvalidArgumentError } from 'commander';
import type { MessageKey } from './i18n/index.js';
import { FIELD_PATH, MAX_TIMES } from './sandbox/trigger-fields.js';
import { baseUrlProblem } from './service/base-url.js';

const invalid = (key: MessageKey): InvalidArgumentError => new InvalidArgumentError(key);

export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    throw invalid('cli.expectPort');
  }
  return port;
}

/** A day: longer waits are mistakes, and timers overflow past about 24.8 days. */
export const MAX_SECONDS = 86_400;

export function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds < 0 || seconds > MAX_SECONDS) {
    throw invalid('cli.expectSeconds');
  }
  return seconds;
}

export function parseMilliseconds(value: string): number {
  const ms = Number(value);
  if (value.trim() === '' || !Number.isFinite(ms) || ms < 0 || ms > MAX_SECONDS * 1000) {
    throw invalid('cli.expectMilliseconds');
  }
  return ms;
}

export function parseHost(value: string): string {
  // An empty host would bind every interface; a URL or a port here is a slip.
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(value)) {
    throw invalid('cli.expectHost');
  }
  return value.replace(/^\[|\]$/g, '');
}

export function parsePositiveSeconds(value: string): number {
  const seconds = parseSeconds(value);
  if (seconds === 0) throw invalid('cli.expectPositiveSeconds');
  return seconds;
}

export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1) {
    throw invalid('cli.expectPositiveInt');
  }
  // Past 2^53 the number is not the one typed, and the store refuses it as a limit ("datatype mismatch").
  if (!Number.isSafeInteger(n)) throw invalid('cli.expectSafeInt');
  return n;
}

export function parseShare(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw invalid('cli.expectShare');
  }
  return n;
}

/** --listen: the sender must know the port, so 0 (any free port) makes no sense here. */
export function parseListen(value: string): { host: string; port: number } {
  const listen = parseHostPort(value);
  if (listen.port === 0) {
    throw invalid('cli.expectFixedPort');
  }
  return listen;
}

export function parseHostPort(value: string): { host: string; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d+)$/.exec(value);
  if (!match) throw invalid('cli.expectHostPort');
  const port = parsePort(match[2] ?? '');
  const host = (match[1] ?? '127.0.0.1').replace(/^\[|\]$/g, '');
  return { host, port };
}

/** --lang: Portuguese (pt, pt-BR, pt_BR.UTF-8...) or English (en, en-US...); anything else is a slip. */
export function parseLang(value: string): string {
  if (!/^(pt|en)([-_.@].*)?$/i.test(value)) throw invalid('cli.expectLang');
  return value;
}

export function parseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('cli.expectUrl');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid('cli.expectHttpUrl');
  }
  return value;
}

/** --base-url: an http(s) URL without query or fragment (it names the service, service/base-url.ts). */
export function parseBaseUrlFlag(value: string): string {
  const url = parseUrl(value);
  const problem = baseUrlProblem(url);
  if (problem === 'query') throw invalid('config.expectNoQuery');
  if (problem === 'fragment') throw invalid('config.expectNoFragment');
  return url;
}

/** A field of a payload and its value: `--set path=value` (a string), `--set-json path=<JSON>`. */
export interface FieldSetting {
  path: string;
  value: unknown;
}

/** The path before `=`: a dotted path of field names, never into a prototype (the sandbox refuses one too). */
function fieldPath(text: string, at: number, expected: MessageKey): string {
  if (at < 1) throw invalid(expected);
  const path = text.slice(0, at);
  if (!FIELD_PATH.test(path)) throw invalid('cli.expectSetPath');
  return path;
}

/** `--set path=value`, repeatable: the value is a string, whatever it looks like. */
export function collectSet(text: string, previous: FieldSetting[] = []): FieldSetting[] {
  const at = text.indexOf('=');
  return [...previous, { path: fieldPath(text, at, 'cli.expectSet'), value: text.slice(at + 1) }];
}

/** `--set-json path=<JSON>`, repeatable. */
export function collectSetJson(text: string, previous: FieldSetting[] = []): FieldSetting[] {
  const at = text.indexOf('=');
  const path = fieldPath(text, at, 'cli.expectSetJson');
  try {
    return [...previous, { path, value: JSON.parse(text.slice(at + 1)) as unknown }];
  } catch {
    throw invalid('cli.expectSetJson');
  }
}

/** `sandbox trigger --times`: 1 to MAX_TIMES copies (the sandbox refuses more). */
export function parseTimes(value: string): number {
  const n = parsePositiveInt(value);
  if (n > MAX_TIMES) throw invalid('cli.expectTimes');
  return n;
}
