import type { Context, EventsInput } from '../cli-inputs.js';
import { EconsigError, ExitCode, UsageError } from '../errors.js';
import { msg } from '../i18n/index.js';
import { outcomeFlag, sinceFlag } from '../domain/since.js';
import type { EventQuery } from '../record/record.js';
import { openSettingsStore } from '../record/open.js';
import { isLoopbackUrl } from '../service/client.js';
import { listenerSettings, resolveSettings, type ResolvedSettings } from '../settings/settings.js';
import { renderStoreNotice } from '../ui/history-output.js';
import type { CheckRow } from '../flows/check-receiver.js';
import { resolveHome } from '../settings/home.js';
import { renderCheck, renderCheckRow, renderEvent, renderEvents, renderResendSummary, renderResent, renderUnsigned } from '../ui/events-output.js';
import { confirmTarget } from '../ui/prompts.js';
import { usableSecret } from '../webhook/verify.js';

/** What a delivery can be (webhook/extract.ts, WebhookOutcome). */
const EVENT_OUTCOMES: readonly string[] = ['approved', 'denied', 'cancelled', 'unknown'];
/** Above this many, a resend on a terminal asks first. */
const CONFIRM_ABOVE = 10;

type Filters = Pick<EventsInput & { action: 'list' }, 'contract' | 'proposal' | 'outcome' | 'since'>;

/** The filters shared by `events` and `events resend`, checked: the store's query without its page. */
function queryOf(input: Filters): Omit<EventQuery, 'limit' | 'pastId' | 'oldestFirst'> {
  outcomeFlag(input.outcome, EVENT_OUTCOMES);
  const since = sinceFlag(input.since, new Date());
  return {
    ...(input.proposal === undefined ? {} : { idProposta: input.proposal }),
    ...(input.contract === undefined ? {} : { idContrato: input.contract }),
    ...(input.outcome === undefined ? {} : { outcome: input.outcome }),
    ...(since === undefined ? {} : { since }),
  };
}

export async function run(input: EventsInput, ctx: Context): Promise<number> {
  if (input.action === 'resend') return resend(input, ctx);
  if (input.action === 'check') return check(input, ctx);
  const query = input.action === 'list' ? queryOf(input) : undefined;
  const settings = await resolveSettings({ env: ctx.env, globals: ctx.globals });
  const store = await openSettingsStore(settings, (notice) => renderStoreNotice(ctx.io, notice));
  try {
    if (input.action === 'list') {
      renderEvents(ctx.io, await store.events({ ...query, limit: input.limit }));
      return ExitCode.ok;
    }
    const event = await store.event(input.id);
    if (event === null) throw new EconsigError(msg('events.notFound', { id: input.id, store: store.location }), { exitCode: ExitCode.notFound, hint: msg('events.notFoundHint') });
    renderEvent(ctx.io, event);
    return ExitCode.ok;
  } finally {
    await store.close();
  }
}

/** The secret that signs, checked before anything is sent: --secret, ECONSIG_WEBHOOK_SECRET, the profile's webhook.secret. */
function signingSecret(settings: ResolvedSettings): string | undefined {
  const { secret } = listenerSettings(settings);
  return secret === undefined ? undefined : usableSecret(secret, msg('events.secretUnusableHint'));
}

async function resend(input: Extract<EventsInput, { action: 'resend' }>, ctx: Context): Promise<number> {
  const filtered = input.contract !== undefined || input.outcome !== undefined || input.since !== undefined;
  if ((input.ids.length > 0) === filtered) throw new UsageError(msg('events.resendWhich'), msg('events.resendWhichHint'));
  // Bodies may hold a person's data: never over a network in clear unless the operator says so.
  if (!input.yes && new URL(input.to).protocol === 'http:' && !isLoopbackUrl(input.to)) throw new UsageError(msg('events.insecureTo', { url: input.to }), msg('events.insecureToHint'));
  const selection = filtered ? { query: queryOf({ ...input, proposal: undefined }) } : { ids: input.ids };
  const settings = await resolveSettings({ env: ctx.env, globals: ctx.globals, flags: input.secret === undefined ? {} : { 'webhook.secret': input.secret } });
  const secret = signingSecret(settings);
  const { resendDeliveries, selectDeliveries } = await import('../flows/resend-events.js');
  const store = await openSettingsStore(settings, (notice) => renderStoreNotice(ctx.io, notice));
  let results;
  try {
    const selected = await selectDeliveries(store, selection, store.location);
    const n = `${selected.count.toLocaleString(ctx.io.lang)}${selected.atLeast ? '+' : ''}`;
    if (!input.yes && ctx.io.canPrompt && selected.count > CONFIRM_ABOVE) await confirmTarget(ctx.io, msg('events.confirmResend', { n, url: input.to }), ctx.signal);
    if (secret === undefined && selected.count > 0) renderUnsigned(ctx.io);
    results = await resendDeliveries(selected.pages(), { to: input.to, secret, signal: ctx.signal }, (result) => renderResent(ctx.io, result));
  } finally {
    await store.close();
  }
  renderResendSummary(ctx.io, input.to, results);
  return results.every((r) => r.ok) ? ExitCode.ok : ExitCode.unavailable;
}

/** A receiver's check: through a sandbox started here (signing with the receiver's secret) or a running one; 0 when every row holds, 1 when not. */
async function check(input: Extract<EventsInput, { action: 'check' }>, ctx: Context): Promise<number> {
  const [{ checkReceiver, withCheckSandbox }, { triggerTarget }] = await Promise.all([import('../flows/check-receiver.js'), import('../flows/sandbox-trigger.js')]);
  const onRow = (row: CheckRow): void => renderCheckRow(ctx.io, row);
  let report;
  if (input.sandbox !== undefined) {
    report = await checkReceiver(triggerTarget(resolveHome(ctx.env), input.sandbox, ctx.env.ECONSIG_TOKEN), input.to, onRow);
  } else {
    const settings = await resolveSettings({ env: ctx.env, globals: ctx.globals, flags: input.secret === undefined ? {} : { 'webhook.secret': input.secret } });
    const secret = signingSecret(settings);
    if (secret === undefined) throw new UsageError(msg('events.checkNeedsSecret'), msg('events.checkNeedsSecretHint'));
    report = await withCheckSandbox(secret, (target) => checkReceiver(target, input.to, onRow));
  }
  renderCheck(ctx.io, input.to, report);
  return report.ok ? ExitCode.ok : ExitCode.invalid;
}
