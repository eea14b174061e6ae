/**
 * Certificates for the mTLS tests, made fresh per test run with Debian's openssl: a CA, a
 * server certificate for 127.0.0.1 signed by it, a client certificate signed by it, an
 * expired client certificate, a self-signed client certificate, a PKCS#12 bundle of the
 * good client, and a second CA that trusts nothing of ours ("the wrong CA").
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCerts {
  dir: string;
  ca: string;
  /** A CA that signed none of the certificates below. */
  otherCa: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  expiredCert: string;
  /** The key of the expired certificate. */
  expiredKey: string;
  selfSignedCert: string;
  selfSignedKey: string;
  pfx: string;
  pfxPassphrase: string;
  cleanup(): void;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Generate every certificate in a fresh temporary folder (keys 0600). */
export function makeTestCerts(): TestCerts {
  const dir = mkdtempSync(join(tmpdir(), 'econsig-certs-'));
  const run = (...args: string[]): void => openssl(dir, args);
  const newKey = ['-newkey', 'rsa:2048', '-nodes'];
  run('req', '-x509', ...newKey, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '3', '-subj', '/CN=econsig test CA');
  run('req', '-x509', ...newKey, '-keyout', 'other-ca.key', '-out', 'other-ca.pem', '-days', '3', '-subj', '/CN=some other CA');

  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  run('req', ...newKey, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  run('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '3', '-extfile', 'server.ext');

  writeFileSync(join(dir, 'client.ext'), 'extendedKeyUsage=clientAuth\n');
  run('req', ...newKey, '-keyout', 'client.key', '-out', 'client.csr', '-subj', '/O=Banco Exemplo/CN=econsig test client');
  run('x509', '-req', '-in', 'client.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'client.pem', '-days', '3', '-extfile', 'client.ext');

  // `openssl x509` cannot back-date; `openssl ca` can, with a throwaway database.
  writeFileSync(
    join(dir, 'ca.cnf'),
    '[ca]\ndefault_ca = x\n[x]\ndatabase = index.txt\nnew_certs_dir = .\nserial = serial\ndefault_md = sha256\npolicy = p\nunique_subject = no\n[p]\ncommonName = supplied\n',
  );
  writeFileSync(join(dir, 'index.txt'), '');
  writeFileSync(join(dir, 'serial'), '1000\n');
  run('req', ...newKey, '-keyout', 'expired.key', '-out', 'expired.csr', '-subj', '/CN=expired client');
  run('ca', '-batch', '-config', 'ca.cnf', '-cert', 'ca.pem', '-keyfile', 'ca.key', '-in', 'expired.csr', '-out', 'expired.pem', '-startdate', '20200101000000Z', '-enddate', '20210101000000Z', '-notext');

  run('req', '-x509', ...newKey, '-keyout', 'self.key', '-out', 'self.pem', '-days', '3', '-subj', '/CN=self-signed client');
  const pfxPassphrase = 'pfx-pass-7f3a';
  run('pkcs12', '-export', '-in', 'client.pem', '-inkey', 'client.key', '-out', 'client.p12', '-passout', `pass:${pfxPassphrase}`);

  for (const key of ['ca.key', 'other-ca.key', 'server.key', 'client.key', 'expired.key', 'self.key', 'client.p12']) chmodSync(join(dir, key), 0o600);
  const at = (name: string): string => join(dir, name);
  return {
    dir,
    ca: at('ca.pem'),
    otherCa: at('other-ca.pem'),
    serverCert: at('server.pem'),
    serverKey: at('server.key'),
    clientCert: at('client.pem'),
    clientKey: at('client.key'),
    expiredCert: at('expired.pem'),
    expiredKey: at('expired.key'),
    selfSignedCert: at('self.pem'),
    selfSignedKey: at('self.key'),
    pfx: at('client.p12'),
    pfxPassphrase,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
