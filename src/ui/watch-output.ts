/**
 * What `econsig watch` shows. With --json, stdout carries exactly the contract's stream
 * (cli-contract.md "--json": a `listening` line, then one `result` line per delivery).
 * Without it, each delivery is one greppable line on stdout (the command's data), and
 * everything else (ready line, warnings, rejections, forwards, summary) goes to stderr.
 */
import type { ContractResult } from '../flows/watch-session.js';
import type { ListenerEvent, ListenerStats } from '../webhook/server.js';
import type { Io } from './io.js';
import { printable } from './printable.js';
import { createTheme, type Theme } from './theme.js';

export interface WatchOutput {
  listening(info: { url: string; verified: boolean; forwardTo: string | undefined; contract: string | undefined; journal: string }): void;
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
  const theme = createTheme(io);
  // Delivery lines are data on stdout: coloured only when stdout itself is a terminal.
  const dataTheme = createTheme({ color: io.colorStdout });
  const out = (text: string): void => void io.stdout.write(`${text}\n`);
  const err = (text: string): void => void io.stderr.write(`${text}\n`);

  return {
    listening({ url, verified, forwardTo, contract, journal }) {
      if (io.json) out(JSON.stringify({ event: 'listening', url }));
      err(`${theme.success('Ready!')} Listening on ${theme.strong(url)} (Ctrl-C to stop)`);
      if (!verified) {
        err(
          `${theme.warning('warning:')} no webhook secret: signatures are not verified (verified: null). ` +
            'Set ECONSIG_WEBHOOK_SECRET or `econsig config set webhook.secret whsec_...`.',
        );
      }
      if (forwardTo) err(`  forwarding each delivery to ${forwardTo}`);
      if (contract) err(`  waiting for the result of contract ${theme.strong(contract)}`);
      if (io.verbose) err(theme.muted(`  journal: ${journal}`));
    },

    event(e) {
      switch (e.kind) {
        case 'delivery': {
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
        case 'duplicate':
          if (io.verbose) err(theme.muted(`${time(e.receivedAt)}  duplicate ${e.webhookId ?? e.bodyHash.slice(0, 12)} answered 200, not shown again`));
          return;
        case 'rejected':
          err(`${theme.warning('warning:')} ${time(e.receivedAt)} rejected a delivery (401${e.webhookId ? `, webhook-id ${e.webhookId}` : ''}): ${e.message}`);
          return;
        case 'invalid':
          err(`${theme.warning('warning:')} ${time(e.receivedAt)} answered ${e.httpStatus}: ${e.message}`);
          return;
        case 'error':
          err(`${theme.error('error:')} ${time(e.receivedAt)} ${e.message}`);
          return;
        case 'forwarded': {
          const what = e.idContrato ?? e.webhookId ?? e.bodyHash.slice(0, 12);
          if (e.httpStatus !== null && e.httpStatus < 300) err(theme.muted(`  → forwarded ${what}: ${e.httpStatus} (${e.ms} ms)`));
          else err(`${theme.warning('warning:')} forward of ${what} ${e.httpStatus === null ? `failed: ${e.error}` : `answered ${e.httpStatus}`}`);
          return;
        }
      }
    },

    contractResult(r) {
      if (io.json && r.source === 'journal') {
        // Not delivered to this listener, so no result line was printed for it yet.
        out(JSON.stringify({ event: 'result', idContrato: r.idContrato, status: r.status, outcome: r.outcome, verified: null, receivedAt: null, payload: null, reason: r.reason, source: 'journal' }));
      }
      const from = r.source === 'journal' ? ' (already in the journal)' : '';
      const reason = r.reason ? `: ${r.reason}` : '';
      const id = printable(r.idContrato);
      if (r.outcome === 'approved') err(`${theme.success('✓')} Contract ${id} approved${from}.`);
      else if (r.outcome === 'denied') err(`${theme.error('✗')} Contract ${id} denied${printable(reason)}${from}.`);
      else err(`${theme.warning('✗')} Contract ${id} was cancelled${printable(reason)}${from}; exiting 8, as for a denial.`);
    },

    timeout({ contract, seconds }) {
      if (io.json) out(JSON.stringify({ event: 'timeout', idContrato: contract }));
      const id = printable(contract);
      err(`${theme.error('error:')} No result for contract ${id} within ${seconds} s.`);
      err(`  ${theme.info('hint:')} Check later with \`econsig history --contract ${id}\`, or wait longer with --timeout.`);
    },

    stopped(stats) {
      const extra = [
        stats.duplicates ? plural(stats.duplicates, 'duplicate') : null,
        stats.rejected ? `${stats.rejected} rejected` : null,
        stats.invalid ? `${stats.invalid} invalid` : null,
      ].filter(Boolean);
      err(`Stopped. ${plural(stats.received, 'delivery', 'deliveries')} received${extra.length ? ` (${extra.join(', ')})` : ''}.`);
    },
  };
}
