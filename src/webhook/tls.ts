/**
 * `watch --tls-cert/--tls-key`: the receiver serves HTTPS itself, without a reverse proxy
 * (docs/cli-contract.md "Teams and homologation"). Both files are read and checked as a pair at
 * start, so a wrong path or a key of another certificate is a usage error then, not a
 * handshake failure at the first delivery.
 */
import { msg } from '../i18n/index.js';
import { readFile } from 'node:fs/promises';
import { createSecureContext } from 'node:tls';
import { UsageError } from '../errors.js';

export async function readServerTls(certPath: string | undefined, keyPath: string | undefined): Promise<{ cert: Buffer; key: Buffer } | undefined> {
  if (certPath === undefined && keyPath === undefined) return undefined;
  if (certPath === undefined || keyPath === undefined) {
    const [given, missing] = certPath === undefined ? ['--tls-key', '--tls-cert'] : ['--tls-cert', '--tls-key'];
    throw new UsageError(msg('tls.needsBoth', { given, missing }), msg('tls.needsBothHint'));
  }
  const read = async (path: string, flag: string): Promise<Buffer> => {
    try {
      return await readFile(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(msg('tls.serverCannotRead', { flag, path, code: code ? ` (${code})` : '' }), msg('tls.serverCannotReadHint'), error);
    }
  };
  const cert = await read(certPath, '--tls-cert');
  const key = await read(keyPath, '--tls-key');
  try {
    createSecureContext({ cert, key });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(msg('tls.serverMismatch', { cert: certPath, key: keyPath, reason }), msg('tls.serverMismatchHint'), error);
  }
  return { cert, key };
}
