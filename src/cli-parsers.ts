/** Flag value parsers: each throws commander's InvalidArgumentError, which exits 2. */
import { InvalidArgumentError } from 'commander';

export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    throw new InvalidArgumentError('expected a port number from 0 to 65535 (0 picks a free port).');
  }
  return port;
}

export function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds < 0) {
    throw new InvalidArgumentError('expected a number of seconds, e.g. 30 or 0.5.');
  }
  return seconds;
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
