import { chmodSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthError, UsageError } from '../../../src/errors.js';
import { checkCertificateDates, expiresSoon, loadTlsMaterial, type ClientCertificateInfo } from '../../../src/settings/tls-files.js';
import { makeTestCerts, type TestCerts } from '../../e2e/certs.js';
import { say } from '../../../src/i18n/index.js';

let certs: TestCerts;
beforeAll(() => {
  certs = makeTestCerts();
});
afterAll(() => certs.cleanup());

const none = { 'tls.cert': undefined, 'tls.key': undefined, 'tls.pfx': undefined, 'tls.ca': undefined };

describe('loadTlsMaterial', () => {
  it('nothing set: nothing to load', () => {
    expect(loadTlsMaterial(none, {}, {})).toBeUndefined();
  });
  it('a PEM pair and a CA: certificate described, CA added to the system roots', () => {
    const tls = loadTlsMaterial({ ...none, 'tls.cert': certs.clientCert, 'tls.key': certs.clientKey, 'tls.ca': certs.ca }, {}, {});
    expect(tls?.certificate).toMatchObject({ subject: 'O=Banco Exemplo, CN=econsig test client', issuer: 'CN=econsig test CA', setting: 'tls.cert' });
    expect(tls?.connect.ca?.length).toBeGreaterThan(1);
    expect(tls?.warnings).toEqual([]);
  });
  it('a PKCS#12 bundle opens with its passphrase and shows the same certificate; a wrong one is exit 3', () => {
    const values = { ...none, 'tls.pfx': certs.pfx };
    expect(loadTlsMaterial(values, {}, { ECONSIG_TLS_PASSPHRASE: certs.pfxPassphrase })?.certificate?.subject).toBe('O=Banco Exemplo, CN=econsig test client');
    expect(() => loadTlsMaterial(values, {}, { ECONSIG_TLS_PASSPHRASE: 'wrong' })).toThrow(AuthError);
  });
  it.each([
    ['a certificate without its key', { 'tls.cert': 'c' }, /tls.key \(env ECONSIG_TLS_KEY\)/],
    ['both a bundle and a PEM pair', { 'tls.pfx': 'p', 'tls.cert': 'c', 'tls.key': 'k' }, /Both tls.pfx and tls.cert/],
    ['a file that is not there', { 'tls.ca': '/nonexistent/ca.pem' }, /Cannot read tls.ca file \/nonexistent\/ca.pem: ENOENT/],
  ])('%s: a usage error naming it', (_name, values, message) => {
    expect(() => loadTlsMaterial({ ...none, ...values }, {}, {})).toThrow(UsageError);
    expect(() => loadTlsMaterial({ ...none, ...values }, {}, {})).toThrow(message);
  });
  it('a key and certificate that do not match: a usage error', () => {
    expect(() => loadTlsMaterial({ ...none, 'tls.cert': certs.clientCert, 'tls.key': certs.selfSignedKey }, {}, {})).toThrow(/cannot be used together/);
  });
  it('names the variable when the path came from the environment, and warns about a shared key', () => {
    const key = join(certs.dir, 'shared.key');
    copyFileSync(certs.clientKey, key);
    chmodSync(key, 0o640);
    const tls = loadTlsMaterial({ ...none, 'tls.cert': certs.clientCert, 'tls.key': key }, { 'tls.key': 'env' }, {});
    expect(tls?.warnings.map((w) => say('en', w))).toEqual([`ECONSIG_TLS_KEY ${key} can be read by other users (mode 0640); run: chmod 600 ${key}`]);
    // On Windows a mode says nothing of who can read the file: no warning, no chmod to run.
    expect(loadTlsMaterial({ ...none, 'tls.cert': certs.clientCert, 'tls.key': key }, { 'tls.key': 'env' }, {}, 'win32')?.warnings).toEqual([]);
  });
});

describe('certificate dates', () => {
  const info: ClientCertificateInfo = {
    path: '/c.pem',
    setting: 'tls.cert',
    subject: 'CN=x',
    issuer: 'CN=ca',
    validFrom: new Date('2026-01-01T00:00:00Z'),
    validTo: new Date('2026-12-31T00:00:00Z'),
  };
  it.each([
    ['2025-12-31T23:59:59Z', 'is not valid yet: valid from 2026-01-01T00:00:00.000Z to 2026-12-31T00:00:00.000Z', false],
    ['2026-06-01T00:00:00Z', undefined, false],
    ['2026-12-01T00:00:01Z', undefined, true],
    ['2026-12-31T00:00:01Z', 'has expired: valid from 2026-01-01T00:00:00.000Z to 2026-12-31T00:00:00.000Z', true],
  ])('at %s: %s (expires soon: %s)', (now, message, soon) => {
    const refused = checkCertificateDates(info, new Date(now));
    if (message === undefined) expect(refused).toBeUndefined();
    else expect(refused?.message).toContain(message);
    expect(expiresSoon(info, new Date(now))).toBe(soon);
  });
});
