/**
 * One TLS handshake, no request: does this machine trust the server, and does the server
 * accept our client certificate? Run before the first POST because TLS 1.3 reports a
 * refused client certificate only after the handshake, when undici has already written
 * the request: a POST would then fail as "other side closed", which reads as "it may have
 * arrived" although the server never took it.
 */
import { isIP } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';

export type TlsProbeResult =
  | { ok: true; protocol: string | null; certificateChecked: boolean }
  | { ok: false; kind: 'untrusted'; code: string; message: string }
  | { ok: false; kind: 'certificate-required'; code: string }
  | { ok: false; kind: 'certificate-refused'; code: string }
  | { ok: false; kind: 'connect'; code: string; message: string };

/** Codes of a server certificate this machine does not trust (Node/OpenSSL verify errors). */
const UNTRUSTED = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** True for a Node/undici error code saying the server's certificate is not trusted. */
export function isUntrustedServerCode(code: string | undefined): boolean {
  return code !== undefined && UNTRUSTED.has(code);
}

/** Wait this long after the handshake for the server's verdict on our certificate. */
const VERDICT_WAIT_MS = 400;

/**
 * Handshake with `url`'s host using `options` (cert, key, pfx, passphrase, ca). A TLS 1.3
 * server that accepts us sends session tickets at once; one that refuses sends an alert or
 * closes. A server that sends neither within a short wait is taken as accepting.
 */
export function probeTls(url: URL, options: ConnectionOptions, timeoutMs: number): Promise<TlsProbeResult> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || 443);
  const withCertificate = options.cert !== undefined || options.pfx !== undefined;
  return new Promise((resolve) => {
    let settled = false;
    let handshaken = false;
    const socket = tlsConnect({ ...options, host, port, ...(isIP(host) ? {} : { servername: host }) });
    const done = (result: TlsProbeResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(verdict);
      socket.destroy();
      resolve(result);
    };
    let verdict: NodeJS.Timeout | undefined;
    const deadline = setTimeout(
      () => done({ ok: false, kind: 'connect', code: 'ETIMEDOUT', message: `no TLS handshake within ${timeoutMs} ms` }),
      timeoutMs,
    );
    const accepted = (): void => done({ ok: true, protocol: socket.getProtocol(), certificateChecked: true });
    socket.once('secureConnect', () => {
      handshaken = true;
      // Before TLS 1.3 the server judged our certificate inside the handshake that just ended.
      const protocol = socket.getProtocol();
      if (protocol !== null && protocol !== 'TLSv1.3') return done({ ok: true, protocol, certificateChecked: true });
      verdict = setTimeout(() => done({ ok: true, protocol: socket.getProtocol(), certificateChecked: false }), VERDICT_WAIT_MS);
    });
    socket.on('session', accepted);
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? 'ERR_TLS';
      if (isUntrustedServerCode(code)) return done({ ok: false, kind: 'untrusted', code, message: error.message });
      if (code === 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED' || (!withCertificate && /ALERT_HANDSHAKE_FAILURE/.test(code))) {
        return done({ ok: false, kind: 'certificate-required', code });
      }
      if (/^ERR_SSL_.*ALERT/.test(code) || (handshaken && withCertificate)) return done({ ok: false, kind: 'certificate-refused', code });
      // A TLS 1.2 server that rejects our certificate may just reset the handshake.
      if (withCertificate && code === 'ECONNRESET') return done({ ok: false, kind: 'certificate-refused', code: 'ECONNRESET during the handshake' });
      done({ ok: false, kind: 'connect', code, message: error.message });
    });
    socket.once('close', () => {
      if (!handshaken) return done({ ok: false, kind: 'connect', code: 'ECONNRESET', message: 'the connection closed during the TLS handshake' });
      const code = 'connection closed after the handshake';
      done(withCertificate ? { ok: false, kind: 'certificate-refused', code } : { ok: false, kind: 'certificate-required', code });
    });
  });
}
