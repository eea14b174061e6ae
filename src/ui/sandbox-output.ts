/**
 * The sandbox's log is its data: every line goes to stdout, one per request and per webhook
 * attempt (with --json, one JSON object each). Lines are plain and key=value so they grep well.
 */
import { packageFilePath, packageFileText } from '../package-files.js';
import type { RequestLogEntry, SandboxLogEntry, WebhookLogEntry } from '../sandbox/server.js';
import type { Io } from './io.js';
import { printable } from './printable.js';
import { say } from '../i18n/index.js';

export interface ListeningInfo {
  baseUrl: string;
  token: string;
  endpoint: string;
  webhookUrl: string | undefined;
  delaySeconds: number;
  signed: boolean;
  oauth?: { tokenUrl: string; clientId: string; clientSecret: string; tokenTtlSeconds: number };
  /** The CA a client certificate must be signed by (mTLS). */
  clientCa?: string;
}

export interface SandboxOutput {
  listening(info: ListeningInfo): void;
  log(entry: SandboxLogEntry): void;
  closed(summary: { pendingWebhooks: number; pending: string[] }): void;
}

function describeRequest(e: RequestLogEntry): string {
  const parts = [e.time, 'request', e.method, e.path, String(e.status)];
  if (e.idProposta) parts.push(`idProposta=${printable(e.idProposta)}`);
  if (e.idContrato) parts.push(`idContrato=${e.idContrato}`);
  if (e.codes) parts.push(`erros=${e.codes.join(',')}`);
  if (e.retryAfter !== undefined) parts.push(`retryAfter=${e.retryAfter}s`);
  if (e.pixReplaced && e.contaBancaria) {
    const c = e.contaBancaria;
    parts.push(`contaBancaria=pix:${c.compe}/${c.agencia}/${c.conta}/${c.tipo}`);
  }
  parts.push(`${e.durationMs}ms`);
  return parts.join(' ');
}

function describeWebhook(e: WebhookLogEntry): string {
  const parts = [e.time, 'webhook', `idContrato=${e.idContrato}`, e.status, `attempt=${e.attempt}/${e.tries}`];
  parts.push(e.httpStatus === undefined ? `error=${e.error ?? 'unknown'}` : `http=${e.httpStatus}`);
  if (e.delivered) parts.push('delivered');
  if (e.nextRetryMs !== undefined) parts.push(`retryIn=${e.nextRetryMs}ms`);
  if (e.gaveUp) parts.push('gave-up');
  return parts.join(' ');
}

/** The valid example that ships with econsig. */
const EXAMPLE = ['fixtures', 'valid', 'pix-only.json'];

/**
 * The curl line that sends the bundled example, to paste into this system's usual shell: a
 * POSIX shell, or PowerShell on Windows (Windows Terminal's default), where `curl` alone is
 * another command. The example goes by its path when the package has it on disk, else (the
 * single executable) inline.
 */
export function curlExample(endpoint: string, token: string, examplePath: string | undefined, platform: NodeJS.Platform = process.platform): string {
  // One shell word: single quotes in both shells; a quote inside is '\'' in POSIX, '' in PowerShell.
  const word = (text: string): string => `'${text.replace(/'/g, platform === 'win32' ? "''" : `'\\''`)}'`;
  const data = examplePath === undefined ? JSON.stringify(JSON.parse(packageFileText(...EXAMPLE))) : `@${examplePath}`;
  const curl = platform === 'win32' ? 'curl.exe' : 'curl';
  return `${curl} -i -X POST ${endpoint} -H ${word(`Authorization: Bearer ${token}`)} -H ${word('Content-Type: application/json')} -d ${word(data)}`;
}

export function createSandboxOutput(io: Pick<Io, 'stdout' | 'stderr' | 'json'> & Partial<Pick<Io, 'lang'>>): SandboxOutput {
  const line = (text: string): void => void io.stdout.write(`${text}\n`);
  const json = (doc: unknown): void => line(JSON.stringify(doc));
  const lang = io.lang ?? 'en';
  return {
    listening(info) {
      if (io.json) {
        const { oauth, ...rest } = info;
        // With --oauth only issued tokens are accepted: no static token to name.
        return json({ event: 'listening', ...rest, ...(oauth ? { token: null, oauth } : {}), webhookUrl: info.webhookUrl ?? null });
      }
      const o = info.oauth;
      line(
        o
          ? say(lang, 'sandbox.listeningOauth', { url: info.baseUrl, tokenUrl: o.tokenUrl, clientId: o.clientId, clientSecret: o.clientSecret })
          : say(lang, 'sandbox.listening', { url: info.baseUrl, token: info.token }),
      );
      io.stderr.write(
        [
          say(lang, 'sandbox.endpoint', { endpoint: info.endpoint }),
          say(lang, 'sandbox.results', { url: info.webhookUrl ?? say(lang, 'sandbox.noWebhook'), seconds: info.delaySeconds, signed: info.signed ? say(lang, 'sandbox.signed') : '' }),
          ...(o
            ? [
                say(lang, 'sandbox.oauth', { tokenUrl: o.tokenUrl, seconds: o.tokenTtlSeconds }),
                say(lang, 'sandbox.tryConfig', { url: info.baseUrl }),
                say(lang, 'sandbox.tryLogin', { tokenUrl: o.tokenUrl, clientId: o.clientId }),
              ]
            : [say(lang, 'sandbox.tryCurl', { curl: curlExample(info.endpoint, info.token, packageFilePath(...EXAMPLE)) })]),
          ...(info.clientCa ? [say(lang, 'sandbox.mtls', { ca: info.clientCa })] : []),
          say(lang, 'sandbox.stopHint'),
          '',
        ].join('\n'),
      );
    },
    log(entry) {
      if (io.json) return json(entry);
      line(entry.event === 'request' ? describeRequest(entry) : describeWebhook(entry));
    },
    closed(summary) {
      if (io.json) return json({ event: 'closed', ...summary });
      const list = summary.pending.length > 0 ? `: ${summary.pending.join(', ')}` : '';
      line(say(lang, 'sandbox.stopped', { n: summary.pendingWebhooks, list }));
    },
  };
}
