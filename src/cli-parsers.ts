/**
 * Flag value parsers: each throws commander's InvalidArgumentError, which exits 2. Its
 * text is the catalogue's English one; the error boundary finds the key by it and says it
 * in the run's language (ui/errors.ts usageMessage).
 */
import { InvalidArgumentError } from 'commander';
import { tr } from './i18n/index.js';

export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    throw new InvalidArgumentError(tr('en', 'cli.expectPort'));
  }
  return port;
}

/** A day: longer waits are mistakes, and timers overflow past about 24.8 days. */
export const MAX_SECONDS = 86_400;

export function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds < 0 || seconds > MAX_SECONDS) {
    throw new InvalidArgumentError(tr('en', 'cli.expectSeconds'));
  }
  return seconds;
}

export function parseMilliseconds(value: string): number {
  const ms = Number(value);
  if (value.trim() === '' || !Number.isFinite(ms) || ms < 0 || ms > MAX_SECONDS * 1000) {
    throw new InvalidArgumentError(tr('en', 'cli.expectMilliseconds'));
  }
  return ms;
}

export function parseHost(value: string): string {
  // An empty host would bind every interface; a URL or a port here is a slip.
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(value)) {
    throw new InvalidArgumentError(tr('en', 'cli.expectHost'));
  }
  return value.replace(/^\[|\]$/g, '');
}

export function parsePositiveSeconds(value: string): number {
  const seconds = parseSeconds(value);
  if (seconds === 0) throw new InvalidArgumentError(tr('en', 'cli.expectPositiveSeconds'));
  return seconds;
}

export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1) {
    throw new InvalidArgumentError(tr('en', 'cli.expectPositiveInt'));
  }
  return n;
}

export function parseShare(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new InvalidArgumentError(tr('en', 'cli.expectShare'));
  }
  return n;
}

/** --listen: the sender must know the port, so 0 (any free port) makes no sense here. */
export function parseListen(value: string): { host: string; port: number } {
  const listen = parseHostPort(value);
  if (listen.port === 0) {
    throw new InvalidArgumentError(tr('en', 'cli.expectFixedPort'));
  }
  return listen;
}

export function parseHostPort(value: string): { host: string; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d+)$/.exec(value);
  if (!match) throw new InvalidArgumentError(tr('en', 'cli.expectHostPort'));
  const port = parsePort(match[2] ?? '');
  const host = (match[1] ?? '127.0.0.1').replace(/^\[|\]$/g, '');
  return { host, port };
}

/** --lang: Portuguese (pt, pt-BR, pt_BR.UTF-8...) or English (en, en-US...); anything else is a slip. */
export function parseLang(value: string): string {
  if (!/^(pt|en)([-_.@].*)?$/i.test(value)) throw new InvalidArgumentError(tr('en', 'cli.expectLang'));
  return value;
}

export function parseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(tr('en', 'cli.expectUrl'));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidArgumentError(tr('en', 'cli.expectHttpUrl'));
  }
  return value;
}
