import type { Context, HistoryInput } from '../cli-inputs.js';
import { ExitCode, UsageError } from '../errors.js';
import { outcomes } from '../domain/outcome.js';
import { msg } from '../i18n/index.js';
import { sinceInstant } from '../domain/since.js';
import { openSettingsStore } from '../record/open.js';
import { resolveSettings } from '../settings/settings.js';
import { renderHistory, renderStoreNotice } from '../ui/history-output.js';

/** The submit outcomes, and `cancelled`, which only a result can be. */
const HISTORY_OUTCOMES: readonly string[] = [...outcomes, 'cancelled'];

export async function run(input: HistoryInput, ctx: Context): Promise<number> {
  if (input.outcome !== undefined && !HISTORY_OUTCOMES.includes(input.outcome)) {
    throw new UsageError(msg('history.badOutcome', { value: JSON.stringify(input.outcome) }), msg('history.badOutcomeHint', { outcomes: HISTORY_OUTCOMES.join(', ') }));
  }
  let since: string | undefined;
  if (input.since !== undefined) {
    since = sinceInstant(input.since, new Date()) ?? undefined;
    if (since === undefined) throw new UsageError(msg('history.badSince', { value: JSON.stringify(input.since) }), msg('history.badSinceHint'));
  }
  // The profile's store: SQLite in the home, or the team store of database-url.
  const settings = await resolveSettings({ env: ctx.env, globals: ctx.globals });
  const store = await openSettingsStore(settings, (notice) => renderStoreNotice(ctx.io, notice));
  try {
    const page = await store.history({
      limit: input.limit,
      ...(input.proposal === undefined ? {} : { idProposta: input.proposal }),
      ...(input.contract === undefined ? {} : { idContrato: input.contract }),
      ...(input.outcome === undefined ? {} : { outcome: input.outcome }),
      ...(since === undefined ? {} : { since }),
    });
    renderHistory(ctx.io, page);
  } finally {
    await store.close();
  }
  return ExitCode.ok;
}
