/**
 * The TLS probe against real local HTTPS servers demanding a client certificate, under
 * TLS 1.3 (verdict after the handshake) and TLS 1.2 (verdict inside it).
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeTls } from '../../../src/service/tls-probe.js';
import { makeTestCerts, type TestCerts } from '../../e2e/certs.js';

let certs: TestCerts;
const servers: Server[] = [];
const urls: Record<string, URL> = {};

beforeAll(async () => {
  certs = makeTestCerts();
  const r = (p: string): Buffer => readFileSync(p);
  for (const version of ['TLSv1.3', 'TLSv1.2'] as const) {
    const server = createServer(
      { cert: r(certs.serverCert), key: r(certs.serverKey), ca: r(certs.ca), requestCert: true, rejectUnauthorized: true, minVersion: version, maxVersion: version },
      (_req, res) => res.end('ok'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    urls[version] = new URL(`https://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }
});
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  certs.cleanup();
});

describe.each(['TLSv1.3', 'TLSv1.2'])('probeTls against a %s server that demands a client certificate', (version) => {
  const r = (p: string): Buffer => readFileSync(p);
  it('a certificate signed by its CA: accepted', async () => {
    const result = await probeTls(urls[version]!, { ca: r(certs.ca), cert: r(certs.clientCert), key: r(certs.clientKey) }, 2000);
    expect(result).toMatchObject({ ok: true, protocol: version });
  });
  it('no certificate: certificate-required', async () => {
    expect(await probeTls(urls[version]!, { ca: r(certs.ca) }, 2000)).toMatchObject({ ok: false, kind: 'certificate-required' });
  });
  it('a self-signed certificate: certificate-refused', async () => {
    const result = await probeTls(urls[version]!, { ca: r(certs.ca), cert: r(certs.selfSignedCert), key: r(certs.selfSignedKey) }, 2000);
    expect(result).toMatchObject({ ok: false, kind: 'certificate-refused' });
  });
  it('a server signed by a CA this side does not trust: untrusted', async () => {
    const result = await probeTls(urls[version]!, { ca: r(certs.otherCa), cert: r(certs.clientCert), key: r(certs.clientKey) }, 2000);
    expect(result).toMatchObject({ ok: false, kind: 'untrusted', code: 'SELF_SIGNED_CERT_IN_CHAIN' });
  });
});

it('nothing listening: a connect failure, which the caller leaves to the request', async () => {
  const result = await probeTls(new URL('https://127.0.0.1:1'), {}, 2000);
  expect(result).toMatchObject({ ok: false, kind: 'connect', code: 'ECONNREFUSED' });
});
