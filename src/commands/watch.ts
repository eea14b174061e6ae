import type { Context, WatchInput } from '../cli-inputs.js';
import { msg } from '../i18n/index.js';
import { ExitCode, UsageError } from '../errors.js';
import { storeId } from '../settings/home.js';
import { type ListenerSettings, listenerSettings, payloadRetentionMs, resolveSettings } from '../settings/settings.js';
import { renderStoreNotice } from '../ui/history-output.js';
import { createWatchOutput } from '../ui/watch-output.js';
import { cannotBind } from '../webhook/http.js';
import { ListenError } from '../webhook/server.js';
import { type CallbackAuth, checkCallbackAuth } from '../webhook/auth.js';
import { readServerTls } from '../webhook/tls.js';
import { usableSecret } from '../webhook/verify.js';
import { runWatchSession } from '../flows/watch-session.js';
import { openStore } from '../record/open.js';

interface WatchSettings extends ListenerSettings {
  home: string;
  databaseUrl: string | undefined;
  waitTimeoutSeconds: number;
  payloadRetentionMs: number;
}

/** Flag > env > profile config > default (settings/settings.ts). */
async function watchSettings(input: WatchInput, ctx: Context): Promise<WatchSettings> {
  const s = await resolveSettings({
    env: ctx.env,
    globals: ctx.globals,
    flags: {
      ...(input.port === undefined ? {} : { 'webhook.port': input.port }),
      ...(input.host === undefined ? {} : { 'webhook.host': input.host }),
      ...(input.path === undefined ? {} : { 'webhook.path': input.path }),
      ...(input.secret === undefined ? {} : { 'webhook.secret': input.secret }),
      ...(input.auth === undefined ? {} : { 'webhook.auth': input.auth }),
    },
  });
  return { ...listenerSettings(s), home: s.paths.home, databaseUrl: s.values['database-url'], waitTimeoutSeconds: s.values['wait-timeout'], payloadRetentionMs: payloadRetentionMs(s.values) };
}

export async function run(input: WatchInput, ctx: Context): Promise<number> {
  if (input.timeout !== undefined && input.contract === undefined) {
    throw new UsageError(msg('watch.timeoutNeedsContract'), msg('watch.timeoutNeedsContractHint'));
  }
  const settings = await watchSettings(input, ctx);
  const auth: CallbackAuth = { scheme: settings.auth.scheme, secret: settings.secret?.value, apiKeyHeader: settings.auth.apiKeyHeader };
  const authProblem = checkCallbackAuth(auth);
  if (authProblem) {
    throw new UsageError(authProblem, msg('watch.authHint'));
  }
  if (settings.secret && auth.scheme === 'standard-webhooks') usableSecret(settings.secret, msg('watch.secretUnusableHint'));
  const tls = await readServerTls(input.tlsCert, input.tlsKey);
  const output = createWatchOutput(ctx.io);
  const timeoutSeconds = input.timeout ?? settings.waitTimeoutSeconds;

  // --contract with a team store and no --port/--host: the receiver is elsewhere; wait on the store.
  const listen = !(settings.databaseUrl && input.contract !== undefined && input.port === undefined && input.host === undefined);
  const store = await openStore({ home: settings.home, databaseUrl: settings.databaseUrl, payloadRetentionMs: settings.payloadRetentionMs, onNotice: (notice) => renderStoreNotice(ctx.io, notice) });
  let end;
  try {
    end = await runWatchSession({
      store,
      listen,
      listener: {
        host: settings.host,
        port: settings.port,
        path: settings.path,
        auth,
        tls,
        forwardTo: input.forwardTo,
        extractOptions: settings.extractOptions,
        storeId: await storeId(settings.home, store.location),
      },
      contract: input.contract === undefined ? undefined : { idContrato: input.contract, timeoutMs: timeoutSeconds * 1000 },
      payloadRetentionMs: settings.payloadRetentionMs,
      signal: ctx.signal,
      onListening: (url) =>
        output.listening({ url, auth: auth.scheme, forwardTo: input.forwardTo, contract: input.contract, store: settings.home }),
      onFollowing: (store) => output.following({ store, contract: input.contract ?? '' }),
      onEvent: (event) => output.event(event),
    });
  } catch (error) {
    if (error instanceof ListenError) throw cannotBind(settings.host, settings.port, error.code, error.cause, 'port');
    throw error;
  } finally {
    await store.close();
  }

  if (end.reason === 'result') {
    output.contractResult(end.result);
    return end.result.outcome === 'approved' ? ExitCode.ok : ExitCode.denied;
  }
  if (end.reason === 'timeout' && input.contract !== undefined) {
    // Rendered here, not thrown: under --json the stream ends with a timeout line rather than
    // the error boundary's {ok:false} document (one object per line, docs/cli-contract.md "--json").
    output.timeout({ contract: input.contract, seconds: timeoutSeconds });
    return ExitCode.timeout;
  }
  output.stopped(end.stats);
  return ExitCode.ok;
}
