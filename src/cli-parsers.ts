/** Flag value parsers: each throws commander's InvalidArgumentError, which exits 2. */
import { InvalidArgumentError } from 'commander';

export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    throw new InvalidArgumentError('expected a port number from 0 to 65535 (0 picks a free port).');
  }
  return port;
}

/** A day: longer waits are mistakes, and timers overflow past about 24.8 days. */
export const MAX_SECONDS = 86_400;

export function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds < 0 || seconds > MAX_SECONDS) {
    throw new InvalidArgumentError(`expected a number of seconds from 0 to ${MAX_SECONDS}, e.g. 30 or 0.5.`);
  }
  return seconds;
}

export function parseMilliseconds(value: string): number {
  const ms = Number(value);
  if (value.trim() === '' || !Number.isFinite(ms) || ms < 0 || ms > MAX_SECONDS * 1000) {
    throw new InvalidArgumentError('expected a number of milliseconds, e.g. 200.');
  }
  return ms;
}

export function parseHost(value: string): string {
  // An empty host would bind every interface; a URL or a port here is a slip.
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(value)) {
    throw new InvalidArgumentError('expected an address of this machine, e.g. 127.0.0.1 or ::1.');
  }
  return value.replace(/^\[|\]$/g, '');
}

export function parsePositiveSeconds(value: string): number {
  const seconds = parseSeconds(value);
  if (seconds === 0) throw new InvalidArgumentError('expected more than 0 seconds.');
  return seconds;
}

export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1) {
    throw new InvalidArgumentError('expected a whole number of at least 1.');
  }
  return n;
}

export function parseShare(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new InvalidArgumentError('expected a share from 0 to 1, e.g. 0.2 for one request in five.');
  }
  return n;
}

/** --listen: the sender must know the port, so 0 (any free port) makes no sense here. */
export function parseListen(value: string): { host: string; port: number } {
  const listen = parseHostPort(value);
  if (listen.port === 0) {
    throw new InvalidArgumentError('expected a fixed port that the webhook sender targets, e.g. 127.0.0.1:4020 (0 would pick one nobody knows).');
  }
  return listen;
}

export function parseHostPort(value: string): { host: string; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d+)$/.exec(value);
  if (!match) throw new InvalidArgumentError('expected host:port, e.g. 127.0.0.1:4020, or a port.');
  const port = parsePort(match[2] ?? '');
  const host = (match[1] ?? '127.0.0.1').replace(/^\[|\]$/g, '');
  return { host, port };
}

export function parseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('expected an absolute http(s) URL, e.g. http://127.0.0.1:4020/webhook.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidArgumentError('expected an http:// or https:// URL.');
  }
  return value;
}
