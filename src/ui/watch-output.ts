/**
 * What `econsig watch` shows. With --json, stdout carries exactly the contract's stream
 * (docs/cli-contract.md "--json": a `listening` line, then one `result` line per delivery).
 * Without it, each delivery is one greppable line on stdout (the command's data), and
 * everything else (ready line, warnings, rejections, forwards, summary) goes to stderr.
 * With --json, stderr is structured too: one JSON object per line (`time`, `level`, `msg`
 * and the event's fields), for a receiver whose logs a collector reads. A person's data in a
 * delivery (its payload, its reason) is masked in every one of them unless --reveal.
 */
import type { ContractResult } from '../flows/result-waiter.js';
import type { ListenerEvent, ListenerStats } from '../webhook/server.js';
import { type Lang, type MessageKey, isMessageKey, say } from '../i18n/index.js';
import type { Io } from './io.js';
import { personalJson, personalText } from './personal.js';
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

export function outcomeColor(theme: Theme, outcome: string): (t: string) => string {
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
export function createWatchOutput(io: Pick<Io, 'stdout' | 'stderr' | 'json' | 'color' | 'colorStdout' | 'verbose' | 'lang' | 'reveal'>): WatchOutput {
  const lang: Lang = io.lang;
  const plural = (n: number, one: MessageKey, many: MessageKey): string => say(lang, n === 1 ? one : many, { n });
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
  /** With --forward-to, a delivery's line waits (by body hash) for the app's answer, which goes on it. */
  let forwarding = false;
  const held = new Map<string, string[]>();
  return {
    listening({ url, auth, forwardTo, contract, store }) {
      if (io.json) out(JSON.stringify({ event: 'listening', url }));
      log('info', `${theme.success(say(lang, 'watch.ready'))} ${say(lang, 'watch.listening', { url: theme.strong(url) })}`, say(lang, 'watch.listeningPlain', { url }), { event: 'listening', url, auth });
      if (auth === 'none') {
        const text = say(lang, 'watch.noSecret');
        log('warn', `${theme.warning(say(lang, 'run.warningLabel'))} ${text}`, text);
      } else if (auth !== 'standard-webhooks') {
        const text = say(lang, 'watch.mustAuthenticate', { scheme: auth });
        log('info', `  ${text}`, text);
      }
      if (forwardTo) log('info', `  ${say(lang, 'watch.forwarding', { url: forwardTo })}`, say(lang, 'watch.forwarding', { url: forwardTo }));
      forwarding = forwardTo !== undefined;
      if (contract) log('info', `  ${say(lang, 'watch.waitingFor', { id: theme.strong(contract) })}`, say(lang, 'watch.waitingFor', { id: contract }));
      if (io.verbose) log('debug', theme.muted(`  ${say(lang, 'watch.store', { store })}`), say(lang, 'watch.store', { store }));
    },

    following({ store, contract }) {
      if (io.json) out(JSON.stringify({ event: 'following', store, idContrato: contract }));
      log(
        'info',
        `${theme.success(say(lang, 'watch.ready'))} ${say(lang, 'watch.following', { id: theme.strong(contract), store })}`,
        say(lang, 'watch.followingPlain', { id: contract, store }),
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
                status: personalText(io, e.status),
                outcome: e.outcome,
                verified: e.verified,
                receivedAt: e.receivedAt,
                payload: personalJson(io, e.payload),
                idProposta: e.idProposta,
                reason: personalText(io, e.reason),
                webhookId: e.webhookId,
              }),
            );
            return;
          }
          const color = outcomeColor(dataTheme, e.outcome);
          const parts = [
            dataTheme.muted(time(e.receivedAt)),
            e.idContrato === null ? dataTheme.muted(say(lang, 'watch.noContractId')) : printable(e.idContrato),
            e.idProposta === null ? dataTheme.muted('-') : printable(e.idProposta),
            color(outcomeText(lang, e.outcome, printable(personalText(io, e.status) ?? say(lang, 'watch.noStatus')))),
          ];
          if (e.reason) parts.push(printable(JSON.stringify(personalText(io, e.reason))));
          parts.push(e.verified === true ? dataTheme.success(say(lang, 'watch.verified')) : dataTheme.muted(say(lang, 'watch.unverified')));
          if (forwarding) held.set(e.bodyHash, parts);
          else out(parts.join('  '));
          return;
        }
        case 'duplicate': {
          const text = say(lang, 'watch.duplicate', { id: e.webhookId ?? e.bodyHash.slice(0, 12) });
          if (io.verbose || io.json) log('debug', theme.muted(`${time(e.receivedAt)}  ${text}`), text, { event: 'duplicate', webhookId: e.webhookId, bodyHash: e.bodyHash });
          return;
        }
        case 'rejected': {
          const text = say(lang, 'watch.rejected', { webhookId: e.webhookId ? say(lang, 'watch.webhookId', { id: e.webhookId }) : '', message: reasonText(lang, `watch.reason_${e.reason}`, e.message) });
          log('warn', `${theme.warning(say(lang, 'run.warningLabel'))} ${time(e.receivedAt)} ${text}`, text, { event: 'rejected', httpStatus: 401, cause: e.reason, webhookId: e.webhookId });
          return;
        }
        case 'invalid': {
          const text = say(lang, 'watch.invalid', { status: e.httpStatus, message: reasonText(lang, `watch.invalid_${e.httpStatus}`, e.message) });
          log('warn', `${theme.warning(say(lang, 'run.warningLabel'))} ${time(e.receivedAt)} ${text}`, text, { event: 'invalid', httpStatus: e.httpStatus });
          return;
        }
        case 'error':
          log('error', `${theme.error(say(lang, 'run.errorLabel'))} ${time(e.receivedAt)} ${e.message}`, e.message, { event: 'error' });
          return;
        case 'forwarded': {
          const what = e.idContrato ?? e.webhookId ?? e.bodyHash.slice(0, 12);
          const fields = { event: 'forwarded', idContrato: e.idContrato, webhookId: e.webhookId, httpStatus: e.httpStatus, ms: e.ms };
          const answered = e.httpStatus !== null && e.httpStatus < 300;
          const parts = held.get(e.bodyHash);
          if (parts) {
            // The app's answer on the delivery's own line.
            held.delete(e.bodyHash);
            const app = e.httpStatus === null ? say(lang, 'watch.appNoAnswer') : say(lang, 'watch.appAnswered', { status: e.httpStatus, ms: e.ms });
            parts.push((answered ? dataTheme.success : dataTheme.error)(app));
            out(parts.join('  '));
          } else if (answered) {
            const text = say(lang, 'watch.forwarded', { what, status: e.httpStatus ?? '', ms: e.ms });
            log('info', theme.muted(`  → ${text}`), text, fields);
          }
          if (!answered) {
            const text = e.httpStatus === null ? say(lang, 'watch.forwardFailed', { what, error: String(e.error) }) : say(lang, 'watch.forwardAnswered', { what, status: e.httpStatus });
            const replay = e.idContrato === null ? `econsig events resend ${e.webhookId ?? '<id>'} --to <url>` : `econsig events resend --contract ${e.idContrato} --to <url>`;
            const hint = say(lang, 'watch.forwardReplay', { command: replay });
            log('warn', `${theme.warning(say(lang, 'run.warningLabel'))} ${text}\n  ${theme.info(say(lang, 'run.hintLabel'))} ${hint}`, text, { ...fields, hint });
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
        out(JSON.stringify({ event: 'result', idContrato: r.idContrato, status: personalText(io, r.status), outcome: r.outcome, verified: null, receivedAt: null, payload: null, reason: personalText(io, r.reason), source: 'store' }));
      }
      const from = earlier ? say(lang, 'watch.alreadyInStore') : '';
      const reason = printable(r.reason ? `: ${personalText(io, r.reason)}` : '');
      const id = printable(r.idContrato);
      if (r.outcome === 'approved') err(`${theme.success('✓')} ${say(lang, 'watch.approved', { id, from })}`);
      else if (r.outcome === 'denied') err(`${theme.error('✗')} ${say(lang, 'watch.denied', { id, reason, from })}`);
      else err(`${theme.warning('✗')} ${say(lang, 'watch.cancelled', { id, reason, from })}`);
    },

    timeout({ contract, seconds }) {
      if (io.json) out(JSON.stringify({ event: 'timeout', idContrato: contract }));
      const id = printable(contract);
      const hint = say(lang, 'watch.noResultHint', { id });
      if (io.json) {
        log('error', '', say(lang, 'watch.noResult', { id, seconds }), { event: 'timeout', idContrato: contract, hint });
        return;
      }
      err(`${theme.error(say(lang, 'run.errorLabel'))} ${say(lang, 'watch.noResult', { id, seconds })}`);
      err(`  ${theme.info(say(lang, 'run.hintLabel'))} ${hint}`);
    },

    stopped(stats) {
      // A delivery whose relay never answered (the listener closed first) is still shown.
      for (const parts of held.values()) out(parts.join('  '));
      held.clear();
      const extra = [
        stats.duplicates ? plural(stats.duplicates, 'watch.duplicateOne', 'watch.duplicateMany') : null,
        stats.rejected ? plural(stats.rejected, 'watch.rejectedOne', 'watch.rejectedMany') : null,
        stats.invalid ? plural(stats.invalid, 'watch.invalidOne', 'watch.invalidMany') : null,
      ].filter(Boolean);
      const text = say(lang, 'watch.stopped', { deliveries: plural(stats.received, 'watch.deliveryOne', 'watch.deliveryMany'), extra: extra.length ? ` (${extra.join(', ')})` : '' });
      log('info', text, text, { event: 'stopped', ...stats });
    },
  };
}

/** A delivery's outcome as people read it: approved, denied, cancelled, or unknown with its status. */
export function outcomeText(lang: Lang, outcome: string, status: string): string {
  const key = `watch.outcome_${outcome}`;
  return isMessageKey(key) ? say(lang, key, { status }) : outcome;
}

/** The catalogue's text for a reason the receiver gave; its own words for one the catalogue lacks. */
function reasonText(lang: Lang, key: string, own: string): string {
  return isMessageKey(key) ? say(lang, key) : own;
}
