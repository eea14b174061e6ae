import type { Context, HistoryInput } from '../cli-inputs.js';
import { ExitCode } from '../errors.js';
import { outcomes } from '../domain/outcome.js';
import { outcomeFlag, sinceFlag } from '../domain/since.js';
import { openSettingsStore } from '../record/open.js';
import { resolveSettings } from '../settings/settings.js';
import { renderHistory, renderStoreNotice } from '../ui/history-output.js';

/** The submit outcomes, and `cancelled`, which only a result can be. */
const HISTORY_OUTCOMES: readonly string[] = [...outcomes, 'cancelled'];

export async function run(input: HistoryInput, ctx: Context): Promise<number> {
  outcomeFlag(input.outcome, HISTORY_OUTCOMES);
  const since = sinceFlag(input.since, new Date());
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
