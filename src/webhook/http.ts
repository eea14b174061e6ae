/**
 * Small HTTP pieces shared by the webhook listener and the sandbox (both plain node:http
 * servers on this machine).
 */
import { isMessageKey, msg } from '../i18n/index.js';
import type { IncomingMessage } from 'node:http';
import { EconsigError, ExitCode } from '../errors.js';

/** Largest request body either server accepts (docs/peer-clis.md §4.3 item 1; the sandbox's 413). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** A host as it goes in a URL: IPv6 literals in brackets (RFC 3986 3.2.2). */
export function hostForUrl(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * Reads a request body up to `limit` bytes; null when it is larger, by its declared
 * Content-Length (nothing is read) or as it arrives (reading stops there). Either way the
 * request is left paused: answer with `Connection: close` so the socket is not reused.
 */
export function readBody(req: IncomingMessage, limit: number = MAX_BODY_BYTES): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      resolve(null);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    req.on('error', reject);
  });
}

export function cannotBind(host: string, port: number, code: string | undefined, cause: unknown, retry: 'port' | 'listen'): EconsigError {
  const known = `watch.bind_${code ?? ''}`;
  const reason = isMessageKey(known) ? msg(known) : msg('watch.bindOther');
  const again = msg(retry === 'port' ? 'watch.retryPort' : 'watch.retryListen');
  const hint =
    code === 'EADDRINUSE'
      ? msg('watch.bindInUseHint', { retry: again })
      : code === 'EACCES'
        ? msg('watch.bindPrivilegedHint', { retry: again })
        : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND'
          ? msg('watch.bindHostHint')
          : msg('watch.bindRetryHint', { retry: again });
  return new EconsigError(msg('watch.cannotListen', { address: `${hostForUrl(host)}:${port}`, reason, code: code ? ` (${code})` : '' }), {
    exitCode: ExitCode.usage,
    hint,
    cause,
  });
}
