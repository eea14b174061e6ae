/**
 * Small HTTP pieces shared by the webhook listener and the sandbox (both plain node:http
 * servers on this machine).
 */
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

const bindReasons: Record<string, string> = {
  EADDRINUSE: 'the port is already in use',
  EACCES: 'no permission to bind that port',
  EADDRNOTAVAIL: 'that address is not one of this machine',
  ENOTFOUND: 'that host name is unknown',
};

/**
 * The operator's message when a server cannot bind, the same for `watch`, `submit --wait`
 * and the sandbox: the reason in words and its code, and what to do (`retry` names the flag).
 */
export function cannotBind(host: string, port: number, code: string | undefined, cause: unknown, retry: string): EconsigError {
  const reason = (code && bindReasons[code]) ?? 'the address cannot be bound';
  const hint =
    code === 'EADDRINUSE'
      ? `Something else holds it (another econsig watch, submit --wait or sandbox?). Stop it, or use ${retry}.`
      : code === 'EACCES'
        ? `Ports below 1024 need privileges: use ${retry}.`
        : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND'
          ? '--host must be an address of this machine, e.g. 127.0.0.1.'
          : `Use ${retry}.`;
  return new EconsigError(`Cannot listen on ${hostForUrl(host)}:${port}: ${reason}${code ? ` (${code})` : ''}.`, {
    exitCode: ExitCode.usage,
    hint,
    cause,
  });
}
