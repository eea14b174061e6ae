/**
 * The client certificate and extra CA of a profile (docs/cli-contract.md "Authentication for a real homologation"):
 * `tls.cert` + `tls.key` (PEM) or `tls.pfx` (PKCS#12, passphrase from ECONSIG_TLS_PASSPHRASE),
 * and `tls.ca`, read once per run and handed to undici's `connect` options.
 */
import { type Message, msg } from '../i18n/index.js';
import { X509Certificate } from 'node:crypto';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { TLSSocket, createSecureContext, rootCertificates } from 'node:tls';
import { AuthError, UsageError } from '../errors.js';
import { FileRefusedError, modesProtect, readRegularFile } from '../safe-file.js';
import type { Settings, SettingKey } from './keys.js';
import type { SettingSource } from './settings.js';

/** What undici's `connect` takes for TLS (a subset of tls.connect's options). */
export interface TlsConnectOptions {
  cert?: Buffer;
  key?: Buffer;
  pfx?: Buffer;
  passphrase?: string;
  ca?: Array<string | Buffer>;
}

export interface ClientCertificateInfo {
  /** The file it came from (tls.cert or tls.pfx). */
  path: string;
  /** "tls.cert" or "tls.pfx" and where that was set. */
  setting: string;
  subject: string;
  issuer: string;
  validFrom: Date;
  validTo: Date;
}

export interface TlsMaterial {
  connect: TlsConnectOptions;
  certificate: ClientCertificateInfo | undefined;
  caPath: string | undefined;
  /** Key or bundle files that group or others can read. */
  warnings: Message[];
}

type TlsSettings = Pick<Settings, 'tls.cert' | 'tls.key' | 'tls.pfx' | 'tls.ca'>;

function origin(key: SettingKey, sources: Partial<Record<SettingKey, SettingSource>>, env: string): string {
  return sources[key] === 'env' ? env : key;
}

/**
 * `what`: the setting or variable that names the file (tls.cert, ECONSIG_TLS_KEY...). A
 * regular file of at most 1 MiB: a FIFO or a device is refused at once, naming its full path.
 */
function readSettingFile(path: string, what: string): Buffer {
  try {
    return readRegularFile(path);
  } catch (error) {
    const code = error instanceof FileRefusedError ? error.problem : ((error as NodeJS.ErrnoException).code ?? (error as Error).message);
    throw new UsageError(msg('tls.cannotRead', { what, path: resolve(path), code }), msg('tls.cannotReadHint', { setting: what }));
  }
}

function warnIfShared(path: string, what: string, warnings: Message[], platform: NodeJS.Platform): void {
  if (!modesProtect(platform)) return;
  try {
    const mode = statSync(path).mode & 0o777;
    if ((mode & 0o077) !== 0) {
      warnings.push(msg('tls.shared', { what, path, mode: mode.toString(8).padStart(4, '0') }));
    }
  } catch {
    // Unreadable files are reported when read.
  }
}

/** "O=Banco Exemplo, CN=client" from X509Certificate's one-per-line form. */
function oneLine(name: string): string {
  return name.split('\n').filter(Boolean).join(', ');
}

function describeCertificate(x509: X509Certificate, path: string, setting: string): ClientCertificateInfo {
  return {
    path,
    setting,
    subject: oneLine(x509.subject),
    issuer: oneLine(x509.issuer),
    validFrom: new Date(x509.validFrom),
    validTo: new Date(x509.validTo),
  };
}

/**
 * Read the profile's TLS files. Undefined when none is set. Throws UsageError (2) for a
 * missing half of a pair, an unreadable file or one that is not a certificate, and
 * AuthError (3) for a PKCS#12 bundle the passphrase does not open.
 */
export function loadTlsMaterial(
  values: TlsSettings,
  sources: Partial<Record<SettingKey, SettingSource>>,
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
): TlsMaterial | undefined {
  const certPath = values['tls.cert'];
  const keyPath = values['tls.key'];
  const pfxPath = values['tls.pfx'];
  const caPath = values['tls.ca'];
  if (!certPath && !keyPath && !pfxPath && !caPath) return undefined;
  const certName = origin('tls.cert', sources, 'ECONSIG_TLS_CERT');
  const keyName = origin('tls.key', sources, 'ECONSIG_TLS_KEY');
  const pfxName = origin('tls.pfx', sources, 'ECONSIG_TLS_PFX');
  if (pfxPath && (certPath || keyPath)) {
    throw new UsageError(msg('tls.pfxAndPem', { pfx: pfxName, other: certPath ? certName : keyName }), msg('tls.pfxAndPemHint'));
  }
  if ((certPath === undefined) !== (keyPath === undefined)) {
    const [given, missing] = certPath ? [certName, 'tls.key (env ECONSIG_TLS_KEY)'] : [keyName, 'tls.cert (env ECONSIG_TLS_CERT)'];
    throw new UsageError(msg('tls.halfPair', { given, missing }), msg('tls.halfPairHint'));
  }
  const warnings: Message[] = [];
  const connect: TlsConnectOptions = {};
  let certificate: ClientCertificateInfo | undefined;

  if (certPath && keyPath) {
    connect.cert = readSettingFile(certPath, certName);
    connect.key = readSettingFile(keyPath, keyName);
    warnIfShared(keyPath, keyName, warnings, platform);
    let x509: X509Certificate;
    try {
      x509 = new X509Certificate(connect.cert);
    } catch {
      throw new UsageError(msg('tls.notPem', { setting: certName, path: certPath }), msg('tls.notPemHint'));
    }
    certificate = describeCertificate(x509, certPath, certName);
    try {
      createSecureContext({ cert: connect.cert, key: connect.key });
    } catch (error) {
      throw new UsageError(
        msg('tls.pairMismatch', { certSetting: certName, certPath, keySetting: keyName, keyPath, reason: (error as Error).message }),
        msg('tls.pairMismatchHint'),
      );
    }
  }
  if (pfxPath) {
    connect.pfx = readSettingFile(pfxPath, pfxName);
    warnIfShared(pfxPath, pfxName, warnings, platform);
    const passphrase = env.ECONSIG_TLS_PASSPHRASE;
    if (passphrase !== undefined) connect.passphrase = passphrase;
    let raw: Buffer | undefined;
    try {
      const context = createSecureContext({ pfx: connect.pfx, ...(passphrase === undefined ? {} : { passphrase }) });
      // The public way to see the certificate inside a PKCS#12 bundle: a socket's local certificate.
      const socket = new TLSSocket(null as never, { secureContext: context });
      raw = (socket.getCertificate() as { raw?: Buffer } | null)?.raw;
      socket.destroy();
    } catch (error) {
      throw new AuthError(
        msg('tls.pfxUnopened', { path: pfxPath, setting: pfxName, reason: (error as Error).message }),
        msg(passphrase === undefined ? 'tls.pfxNoPassphraseHint' : 'tls.pfxWrongPassphraseHint'),
      );
    }
    if (raw) certificate = describeCertificate(new X509Certificate(raw), pfxPath, pfxName);
  }
  if (caPath) {
    const caName = origin('tls.ca', sources, 'ECONSIG_TLS_CA');
    const bundle = readSettingFile(caPath, caName);
    try {
      new X509Certificate(bundle);
    } catch {
      throw new UsageError(msg('tls.caNotPem', { setting: caName, path: caPath }), msg('tls.caNotPemHint'));
    }
    // tls.ca adds to the system's trust; Node's `ca` alone would replace it.
    connect.ca = [...rootCertificates, bundle];
  }
  return { connect, certificate, caPath, warnings };
}

/**
 * An expired or not-yet-valid client certificate: AuthError (3) with its dates, so it is
 * refused here rather than by the server after a handshake. Pure.
 */
export function checkCertificateDates(info: ClientCertificateInfo, now: Date): AuthError | undefined {
  const values = { path: info.path, setting: info.setting, subject: info.subject, from: info.validFrom.toISOString(), to: info.validTo.toISOString() };
  if (now.getTime() > info.validTo.getTime()) return new AuthError(msg('tls.expired', values), msg('tls.expiredHint'));
  if (now.getTime() < info.validFrom.getTime()) return new AuthError(msg('tls.notYetValid', values), msg('tls.notYetValidHint'));
  return undefined;
}

const EXPIRY_WARNING_MS = 30 * 24 * 60 * 60 * 1000;

/** True when the certificate ends within 30 days of `now` (auth status warns). Pure. */
export function expiresSoon(info: ClientCertificateInfo, now: Date): boolean {
  return info.validTo.getTime() - now.getTime() <= EXPIRY_WARNING_MS;
}
