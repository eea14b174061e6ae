/**
 * What `econsig watch` shows. With --json, stdout carries exactly the contract's stream
 * (docs/cli-contract.md "--json": a `listening` line, then one `result` line per delivery).
 * Without it, each delivery is one greppable line on stdout (the command's data), and
 * everything else (ready line, warnings, rejections, forwards, summary) goes to stderr.
 * With --json, stderr is structured too: one JSON object per line (`time`, `level`, `msg`
 * and the event's fields), for a receiver whose logs a collector reads.
 */
import type { ContractResult } from '../flows/result-waiter.js';
import type { ListenerEvent, ListenerStats } from '../webhook/server.js';
import { type Lang, type MessageKey, isMessageKey, tr } from '../i18n/index.js';
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
export function createWatchOutput(io: Pick<Io, 'stdout' | 'stderr' | 'json' | 'color' | 'colorStdout' | 'verbose' | 'lang'>): WatchOutput {
  const lang: Lang = io.lang ?? 'en';
  const say = (key: MessageKey, values?: Parameters<typeof tr>[2]): string => tr(lang, key, values);
  const plural = (n: number, one: MessageKey, many: MessageKey): string => say(n === 1 ? one : many, { n });
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
      log('info', `${theme.success(say('watch.ready'))} ${say('watch.listening', { url: theme.strong(url) })}`, say('watch.listeningPlain', { url }), { event: 'listening', url, auth });
      if (auth === 'none') {
        const text = say('watch.noSecret');
        log('warn', `${theme.warning(say('warningLabel'))} ${text}`, text);
      } else if (auth !== 'standard-webhooks') {
        const text = say('watch.mustAuthenticate', { scheme: auth });
        log('info', `  ${text}`, text);
      }
      if (forwardTo) log('info', `  ${say('watch.forwarding', { url: forwardTo })}`, say('watch.forwarding', { url: forwardTo }));
      if (contract) log('info', `  ${say('watch.waitingFor', { id: theme.strong(contract) })}`, say('watch.waitingFor', { id: contract }));
      if (io.verbose) log('debug', theme.muted(`  ${say('watch.store', { store })}`), say('watch.store', { store }));
    },

    following({ store, contract }) {
      if (io.json) out(JSON.stringify({ event: 'following', store, idContrato: contract }));
      log(
        'info',
        `${theme.success(say('watch.ready'))} ${say('watch.following', { id: theme.strong(contract), store })}`,
        say('watch.followingPlain', { id: contract, store }),
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
            e.idContrato === null ? dataTheme.muted(say('watch.noContractId')) : printable(e.idContrato),
            e.idProposta === null ? dataTheme.muted('-') : printable(e.idProposta),
            color(outcomeText(lang, e.outcome, printable(e.status ?? say('watch.noStatus')))),
          ];
          if (e.reason) parts.push(printable(JSON.stringify(e.reason)));
          parts.push(e.verified === true ? dataTheme.success(say('watch.verified')) : dataTheme.muted(say('watch.unverified')));
          out(parts.join('  '));
          return;
        }
        case 'duplicate': {
          const text = say('watch.duplicate', { id: e.webhookId ?? e.bodyHash.slice(0, 12) });
          if (io.verbose || io.json) log('debug', theme.muted(`${time(e.receivedAt)}  ${text}`), text, { event: 'duplicate', webhookId: e.webhookId, bodyHash: e.bodyHash });
          return;
        }
        case 'rejected': {
          const text = say('watch.rejected', { webhookId: e.webhookId ? say('watch.webhookId', { id: e.webhookId }) : '', message: ownWords(lang, `watch.reason_${e.reason}`, e.message) });
          log('warn', `${theme.warning(say('warningLabel'))} ${time(e.receivedAt)} ${text}`, text, { event: 'rejected', httpStatus: 401, cause: e.reason, webhookId: e.webhookId });
          return;
        }
        case 'invalid': {
          const text = say('watch.invalid', { status: e.httpStatus, message: ownWords(lang, `watch.invalid_${e.httpStatus}`, e.message) });
          log('warn', `${theme.warning(say('warningLabel'))} ${time(e.receivedAt)} ${text}`, text, { event: 'invalid', httpStatus: e.httpStatus });
          return;
        }
        case 'error':
          log('error', `${theme.error(say('errorLabel'))} ${time(e.receivedAt)} ${e.message}`, e.message, { event: 'error' });
          return;
        case 'forwarded': {
          const what = e.idContrato ?? e.webhookId ?? e.bodyHash.slice(0, 12);
          const fields = { event: 'forwarded', idContrato: e.idContrato, httpStatus: e.httpStatus, ms: e.ms };
          if (e.httpStatus !== null && e.httpStatus < 300) {
            const text = say('watch.forwarded', { what, status: e.httpStatus, ms: e.ms });
            log('info', theme.muted(`  → ${text}`), text, fields);
          } else {
            const text = e.httpStatus === null ? say('watch.forwardFailed', { what, error: String(e.error) }) : say('watch.forwardAnswered', { what, status: e.httpStatus });
            log('warn', `${theme.warning(say('warningLabel'))} ${text}`, text, fields);
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
      const from = earlier ? say('watch.alreadyInStore') : '';
      const reason = printable(r.reason ? `: ${r.reason}` : '');
      const id = printable(r.idContrato);
      if (r.outcome === 'approved') err(`${theme.success('✓')} ${say('watch.approved', { id, from })}`);
      else if (r.outcome === 'denied') err(`${theme.error('✗')} ${say('watch.denied', { id, reason, from })}`);
      else err(`${theme.warning('✗')} ${say('watch.cancelled', { id, reason, from })}`);
    },

    timeout({ contract, seconds }) {
      if (io.json) out(JSON.stringify({ event: 'timeout', idContrato: contract }));
      const id = printable(contract);
      const hint = say('watch.noResultHint', { id });
      if (io.json) {
        log('error', '', say('watch.noResult', { id, seconds }), { event: 'timeout', idContrato: contract, hint });
        return;
      }
      err(`${theme.error(say('errorLabel'))} ${say('watch.noResult', { id, seconds })}`);
      err(`  ${theme.info(say('hintLabel'))} ${hint}`);
    },

    stopped(stats) {
      const extra = [
        stats.duplicates ? plural(stats.duplicates, 'watch.duplicateOne', 'watch.duplicateMany') : null,
        stats.rejected ? plural(stats.rejected, 'watch.rejectedOne', 'watch.rejectedMany') : null,
        stats.invalid ? plural(stats.invalid, 'watch.invalidOne', 'watch.invalidMany') : null,
      ].filter(Boolean);
      const text = say('watch.stopped', { deliveries: plural(stats.received, 'watch.deliveryOne', 'watch.deliveryMany'), extra: extra.length ? ` (${extra.join(', ')})` : '' });
      log('info', text, text, { event: 'stopped', ...stats });
    },
  };
}

/** A delivery's outcome as people read it: approved, denied, cancelled, or unknown with its status. */
function outcomeText(lang: Lang, outcome: string, status: string): string {
  const key = `watch.outcome_${outcome}`;
  return isMessageKey(key) ? tr(lang, key, { status }) : outcome;
}

/** The receiver's own (English) words in English; in another language, the catalogue's text for that reason. */
function ownWords(lang: Lang, key: string, english: string): string {
  return lang !== 'en' && isMessageKey(key) ? tr(lang, key) : english;
}
