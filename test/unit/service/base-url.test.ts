import { describe, expect, it } from 'vitest';
import { baseUrlProblem, serviceIdentity } from '../../../src/service/base-url.js';
import { InvalidBaseUrlError } from '../../../src/service/errors.js';

describe('serviceIdentity: one service however its base URL is spelled', () => {
  it.each([
    // The six spellings of one sandbox that made six contracts (issue 22).
    ['http://127.0.0.1:4111', 'http://127.0.0.1:4111'],
    ['HTTP://127.0.0.1:4111', 'http://127.0.0.1:4111'],
    ['http://localhost:4111', 'http://127.0.0.1:4111'],
    ['http://127.0.0.1:4111/', 'http://127.0.0.1:4111'],
    ['http://127.1:4111', 'http://127.0.0.1:4111'],
    ['http://0x7f000001:4111', 'http://127.0.0.1:4111'],
    ['http://2130706433:4111', 'http://127.0.0.1:4111'],
    ['http://0177.0.0.1:4111', 'http://127.0.0.1:4111'],
    ['http://LocalHost:4111', 'http://127.0.0.1:4111'],
    ['http://[::1]:4111', 'http://127.0.0.1:4111'],
    ['http://[0:0:0:0:0:0:0:1]:4111', 'http://127.0.0.1:4111'],
    // Another loopback address may be another server: as written (dotted decimal).
    ['http://127.0.0.2:4111', 'http://127.0.0.2:4111'],
    // Default ports, case, IDNA.
    ['https://h:443/', 'https://h'],
    ['https://h/', 'https://h'],
    ['http://h:80', 'http://h'],
    ['https://h:8443', 'https://h:8443'],
    ['https://Homolog.Example.COM', 'https://homolog.example.com'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
    ['https://xn--bcher-kva.example/', 'https://xn--bcher-kva.example'],
    // The path: dot segments, duplicate and trailing slashes; its case stays.
    ['https://h/gw/', 'https://h/gw'],
    ['https://h/gw//', 'https://h/gw'],
    ['https://h//gw///v1', 'https://h/gw/v1'],
    ['https://h/gw/./v1/', 'https://h/gw/v1'],
    ['https://h/x/../gw', 'https://h/gw'],
    ['https://h/GW', 'https://h/GW'],
    // User info is no part of a service (and never stored).
    ['https://user:pw@h/gw', 'https://h/gw'],
    // The scheme is: http and https of one host are two origins.
    ['http://127.0.0.1', 'http://127.0.0.1'],
  ])('%s → %s', (spelled, identity) => {
    expect(serviceIdentity(spelled)).toBe(identity);
  });

  it('is not a URL: InvalidBaseUrlError', () => {
    expect(() => serviceIdentity('not a url')).toThrow(InvalidBaseUrlError);
    expect(() => serviceIdentity('ftp://h')).toThrow(InvalidBaseUrlError);
  });
});

describe('baseUrlProblem: a query or fragment in a base URL is refused', () => {
  it.each([
    ['http://127.0.0.1:4111/?x=1', 'query'],
    ['http://127.0.0.1:4111?', 'query'],
    ['https://h/gw?a=b#c', 'query'],
    ['https://h/gw#top', 'fragment'],
    ['https://h/gw#', 'fragment'],
    ['https://h/gw', undefined],
    ['https://h:443/', undefined],
  ] as const)('%s: %s', (url, problem) => {
    expect(baseUrlProblem(url)).toBe(problem);
  });
});
