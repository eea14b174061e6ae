/**
 * `watch --tls-cert/--tls-key`: the receiver serves HTTPS itself, without a reverse proxy
 * (docs/cli-contract.md "Teams and homologation"). Both files are read and checked as a pair at
 * start, so a wrong path or a key of another certificate is a usage error then, not a
 * handshake failure at the first delivery.
 */
import { readFile } from 'node:fs/promises';
import { createSecureContext } from 'node:tls';
import { UsageError } from '../errors.js';

export async function readServerTls(certPath: string | undefined, keyPath: string | undefined): Promise<{ cert: Buffer; key: Buffer } | undefined> {
  if (certPath === undefined && keyPath === undefined) return undefined;
  if (certPath === undefined || keyPath === undefined) {
    throw new UsageError(`--${certPath === undefined ? 'tls-key' : 'tls-cert'} needs --${certPath === undefined ? 'tls-cert' : 'tls-key'} too.`, 'Give both: --tls-cert cert.pem --tls-key key.pem.');
  }
  const read = async (path: string, flag: string): Promise<Buffer> => {
    try {
      return await readFile(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(`Cannot read ${flag} ${path}${code ? ` (${code})` : ''}.`, `Check the path and that this user may read it.`, error);
    }
  };
  const cert = await read(certPath, '--tls-cert');
  const key = await read(keyPath, '--tls-key');
  try {
    createSecureContext({ cert, key });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`--tls-cert ${certPath} and --tls-key ${keyPath} cannot be used together: ${reason}.`, 'Both must be PEM files, the key the one of that certificate (unencrypted).', error);
  }
  return { cert, key };
}
