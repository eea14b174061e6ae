/**
 * The base URL of the service: parsed once, checked, and turned into the identity the guard
 * keys a proposal on (docs/cli-contract.md, "The guard"). Pure, and free of undici, so the
 * record can key its rows with it without loading the HTTP client.
 */
import { InvalidBaseUrlError } from './errors.js';

/** An absolute http(s) URL, or InvalidBaseUrlError. */
export function parseBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new InvalidBaseUrlError(`Base URL is not an absolute URL: ${JSON.stringify(baseUrl)}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidBaseUrlError(`Base URL must be http:// or https://, not ${url.protocol}//.`);
  }
  return url;
}

/** This machine, as a host of a parsed URL (WHATWG URL has already turned 127.1, 0x7f000001... into dotted decimal). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** The one spelling of this machine in an identity: what the default profile's sandbox URL already says. */
const LOOPBACK = '127.0.0.1';
/** The names of the loopback address itself; another 127.x.y.z may be another server, so it stays as written. */
const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', 'localhost.', '[::1]']);

/**
 * Why a base URL cannot name a service, or undefined when it can: a query or a fragment
 * would be dropped from every request (contractsUrl), so two URLs differing only there are
 * one service spelled two ways; refused rather than guessed.
 */
export function baseUrlProblem(baseUrl: string): 'query' | 'fragment' | undefined {
  parseBaseUrl(baseUrl);
  // The text decides: WHATWG URL reports a bare "?" or "#" as no query, no fragment.
  const [beforeFragment = ''] = baseUrl.split('#');
  if (beforeFragment.includes('?')) return 'query';
  if (baseUrl.includes('#')) return 'fragment';
  return undefined;
}

/**
 * The service a base URL names, as the guard keys it: one string however the URL is spelled.
 * Scheme and host lower-cased and IDNA-encoded, IPv4 in any spelling as dotted decimal and a
 * default port dropped (all by WHATWG URL); `localhost`, `127.0.0.1` and `[::1]` as one
 * loopback identity; the path with `.` and `..` resolved, duplicate and trailing slashes
 * removed; user info, query and fragment left out (no request carries them). The rest stays
 * as written (a path's case, its percent-encoding). Throws InvalidBaseUrlError when it is no
 * http(s) URL.
 */
export function serviceIdentity(baseUrl: string): string {
  const url = parseBaseUrl(baseUrl);
  const host = LOOPBACK_NAMES.has(url.hostname) ? LOOPBACK : url.hostname;
  const port = url.port === '' ? '' : `:${url.port}`;
  const path = url.pathname.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  return `${url.protocol}//${host}${port}${path}`;
}
