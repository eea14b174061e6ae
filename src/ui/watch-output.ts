/**
 * What `econsig watch` shows. With --json, stdout carries exactly the contract's stream
 * (docs/cli-contract.md "--json": a `listening` line, then one `result` line per delivery).
 * Without it, each delivery is one greppable line on stdout (the command's data), and
 * everything else (ready line, warnings, rejections, forwards, summary) goes to stderr.
 * With --json, stderr is structured too: one JSON object per line (`time`, `level`, `msg`
 * and the event's fields), for a receiver whose logs a collector reads.
 */
import type { ContractResult } from '../flows/watch-session.js';
import type { ListenerEvent, ListenerStats } from '../webhook/server.js';
import type { Io } from './io.js';
import { printable } from './printable.js';
import { createTheme, type Theme } from './theme.js';

export interface WatchOutput {
  listening(info: { url: string; auth: string; forwardTo: string | undefined; contract: string | undefined; store: string }): void;
  /** watch --contract on a team store without a listener: the first line names the store. */
  following(info: { store: string; contract: string }): void;
  event(event: ListenerEvent): void;
  contractResult(result: ContractResult): void;
  /** --contract gave up: with --json the stream's last line says so (not an {ok:false} document). */
  timeout(info: { contract: string; seconds: number }): void;
  stopped(stats: ListenerStats): void;
}

function outcomeColor(theme: Theme, outcome: string): (t: string) => string {
  if (outcome === 'approved') return theme.success;
  if (outcome === 'denied') return theme.error;
  if (outcome === 'cancelled') return theme.warning;
  return theme.muted;
}

/** The operator's local clock time of an ISO instant (HH:MM:SS). */
const time = (iso: string): string => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toTimeString().slice(0, 8);
};
const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

export function createWatchOutput(io: Pick<Io, 'stdout' | 'stderr' | 'json' | 'color' | 'colorStdout' | 'verbose'>): WatchOutput {
  // Log lines under --json are plain text in a JSON field: no colour codes in them.
  const theme = createTheme({ color: io.color && !io.json });
  // Delivery lines are data on stdout: coloured only when stdout itself is a terminal.
  const dataTheme = createTheme({ color: io.colorStdout });
  const out = (text: string): void => void io.stdout.write(`${text}\n`);
  /**
   * A line for people on stderr; with --json, a structured log line carrying `msg` (the
   * plain text, without colour) and `fields`.
   */
  const log = (level: 'info' | 'warn' | 'error' | 'debug', text: string, plain: string = text, fields: Record<string, unknown> = {}): void => {
    if (io.json) io.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, msg: plain, ...fields })}\n`);
    else io.stderr.write(`${text}\n`);
  };
  const err = (text: string): void => log('info', text);

  /** Contracts already shown as a delivery to this listener. */
  const shown = new Set<string>();
  return {
    listening({ url, auth, forwardTo, contract, store }) {
      if (io.json) out(JSON.stringify({ event: 'listening', url }));
      log('info', `${theme.success('Ready!')} Listening on ${theme.strong(url)} (Ctrl-C to stop)`, `Listening on ${url}`, { event: 'listening', url, auth });
      if (auth === 'none') {
        const text = 'no webhook secret: signatures are not verified (verified: null). Set ECONSIG_WEBHOOK_SECRET or `econsig config set webhook.secret whsec_...`.';
        log('warn', `${theme.warning('warning:')} ${text}`, text);
      } else if (auth !== 'standard-webhooks') {
        log('info', `  callbacks must authenticate with ${auth}`, `callbacks must authenticate with ${auth}`);
      }
      if (forwardTo) log('info', `  forwarding each delivery to ${forwardTo}`, `forwarding each delivery to ${forwardTo}`);
      if (contract) log('info', `  waiting for the result of contract ${theme.strong(contract)}`, `waiting for the result of contract ${contract}`);
      if (io.verbose) log('debug', theme.muted(`  store: ${store}`), `store: ${store}`);
    },

    following({ store, contract }) {
      if (io.json) out(JSON.stringify({ event: 'following', store, idContrato: contract }));
      log(
        'info',
        `${theme.success('Ready!')} Waiting for the result of contract ${theme.strong(contract)} in the team store ${store} (no listener here)`,
        `Waiting for the result of contract ${contract} in the team store ${store}`,
        { event: 'following', store, idContrato: contract },
      );
    },

    event(e) {
      switch (e.kind) {
        case 'delivery': {
          if (e.idContrato !== null) shown.add(e.idContrato);
          if (io.json) {
            out(
              JSON.stringify({
                event: 'result',
                idContrato: e.idContrato,
                status: e.status,
                outcome: e.outcome,
                verified: e.verified,
                receivedAt: e.receivedAt,
                payload: e.payload,
                idProposta: e.idProposta,
                reason: e.reason,
                webhookId: e.webhookId,
              }),
            );
            return;
          }
          const color = outcomeColor(dataTheme, e.outcome);
          const parts = [
            dataTheme.muted(time(e.receivedAt)),
            e.idContrato === null ? dataTheme.muted('(no contract id)') : printable(e.idContrato),
            e.idProposta === null ? dataTheme.muted('-') : printable(e.idProposta),
            color(e.outcome === 'unknown' ? `unknown (${printable(e.status ?? 'no status')})` : e.outcome),
          ];
          if (e.reason) parts.push(printable(JSON.stringify(e.reason)));
          parts.push(e.verified === true ? dataTheme.success('✓ verified') : dataTheme.muted('unverified'));
          out(parts.join('  '));
          return;
        }
        case 'duplicate': {
          const text = `duplicate ${e.webhookId ?? e.bodyHash.slice(0, 12)} answered 200, not shown again`;
          if (io.verbose || io.json) log('debug', theme.muted(`${time(e.receivedAt)}  ${text}`), text, { event: 'duplicate', webhookId: e.webhookId, bodyHash: e.bodyHash });
          return;
        }
        case 'rejected': {
          const text = `rejected a delivery (401${e.webhookId ? `, webhook-id ${e.webhookId}` : ''}): ${e.message}`;
          log('warn', `${theme.warning('warning:')} ${time(e.receivedAt)} ${text}`, text, { event: 'rejected', httpStatus: 401, cause: e.reason, webhookId: e.webhookId });
          return;
        }
        case 'invalid': {
          const text = `answered ${e.httpStatus}: ${e.message}`;
          log('warn', `${theme.warning('warning:')} ${time(e.receivedAt)} ${text}`, text, { event: 'invalid', httpStatus: e.httpStatus });
          return;
        }
        case 'error':
          log('error', `${theme.error('error:')} ${time(e.receivedAt)} ${e.message}`, e.message, { event: 'error' });
          return;
        case 'forwarded': {
          const what = e.idContrato ?? e.webhookId ?? e.bodyHash.slice(0, 12);
          const fields = { event: 'forwarded', idContrato: e.idContrato, httpStatus: e.httpStatus, ms: e.ms };
          if (e.httpStatus !== null && e.httpStatus < 300) log('info', theme.muted(`  → forwarded ${what}: ${e.httpStatus} (${e.ms} ms)`), `forwarded ${what}: ${e.httpStatus} (${e.ms} ms)`, fields);
          else {
            const text = `forward of ${what} ${e.httpStatus === null ? `failed: ${e.error}` : `answered ${e.httpStatus}`}`;
            log('warn', `${theme.warning('warning:')} ${text}`, text, fields);
          }
          return;
        }
      }
    },

    contractResult(r) {
      // The store's follower can see a delivery to this very listener before the listener
      // reports it (the row is visible once committed, the 2xx waits for the fsync): only a
      // result that was not shown as a delivery here is printed, and called "already in the store".
      const earlier = r.source === 'store' && !shown.has(r.idContrato);
      if (io.json && earlier) {
        out(JSON.stringify({ event: 'result', idContrato: r.idContrato, status: r.status, outcome: r.outcome, verified: null, receivedAt: null, payload: null, reason: r.reason, source: 'store' }));
      }
      const from = earlier ? ' (already in the store)' : '';
      const reason = r.reason ? `: ${r.reason}` : '';
      const id = printable(r.idContrato);
      if (r.outcome === 'approved') err(`${theme.success('✓')} Contract ${id} approved${from}.`);
      else if (r.outcome === 'denied') err(`${theme.error('✗')} Contract ${id} denied${printable(reason)}${from}.`);
      else err(`${theme.warning('✗')} Contract ${id} was cancelled${printable(reason)}${from}; exiting 8, as for a denial.`);
    },

    timeout({ contract, seconds }) {
      if (io.json) out(JSON.stringify({ event: 'timeout', idContrato: contract }));
      const id = printable(contract);
      const hint = `Check later with \`econsig history --contract ${id}\`, or wait longer with --timeout.`;
      if (io.json) {
        log('error', '', `No result for contract ${id} within ${seconds} s.`, { event: 'timeout', idContrato: contract, hint });
        return;
      }
      err(`${theme.error('error:')} No result for contract ${id} within ${seconds} s.`);
      err(`  ${theme.info('hint:')} ${hint}`);
    },

    stopped(stats) {
      const extra = [
        stats.duplicates ? plural(stats.duplicates, 'duplicate') : null,
        stats.rejected ? `${stats.rejected} rejected` : null,
        stats.invalid ? `${stats.invalid} invalid` : null,
      ].filter(Boolean);
      const text = `Stopped. ${plural(stats.received, 'delivery', 'deliveries')} received${extra.length ? ` (${extra.join(', ')})` : ''}.`;
      log('info', text, text, { event: 'stopped', ...stats });
    },
  };
}
