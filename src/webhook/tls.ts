/**
 * `watch --tls-cert/--tls-key`: the receiver serves HTTPS itself, without a reverse proxy
 * (docs/cli-contract.md "Teams and homologation"). Both files are read and checked as a pair at
 * start, so a wrong path or a key of another certificate is a usage error then, not a
 * handshake failure at the first delivery.
 */
import { msg } from '../i18n/index.js';
import { resolve } from 'node:path';
import { createSecureContext } from 'node:tls';
import { UsageError } from '../errors.js';
import { FileRefusedError, readRegularFile } from '../safe-file.js';

export async function readServerTls(certPath: string | undefined, keyPath: string | undefined): Promise<{ cert: Buffer; key: Buffer } | undefined> {
  if (certPath === undefined && keyPath === undefined) return undefined;
  if (certPath === undefined || keyPath === undefined) {
    const [given, missing] = certPath === undefined ? ['--tls-key', '--tls-cert'] : ['--tls-cert', '--tls-key'];
    throw new UsageError(msg('tls.needsBoth', { given, missing }), msg('tls.needsBothHint'));
  }
  // Regular files of at most 1 MiB: a FIFO or a device is refused at once (src/safe-file.ts).
  const read = (path: string, flag: string): Buffer => {
    try {
      return readRegularFile(path);
    } catch (error) {
      const code = error instanceof FileRefusedError ? error.problem : (error as NodeJS.ErrnoException).code;
      throw new UsageError(msg('tls.serverCannotRead', { flag, path: resolve(path), code: code ? msg('tls.because', { reason: code }) : '' }), msg('tls.serverCannotReadHint'), error);
    }
  };
  const cert = read(certPath, '--tls-cert');
  const key = read(keyPath, '--tls-key');
  try {
    createSecureContext({ cert, key });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(msg('tls.serverMismatch', { cert: certPath, key: keyPath, reason }), msg('tls.serverMismatchHint'), error);
  }
  return { cert, key };
}
