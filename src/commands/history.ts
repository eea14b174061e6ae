import type { Context, HistoryInput } from '../cli-inputs.js';
import { ExitCode, UsageError } from '../errors.js';
import { outcomes } from '../domain/outcome.js';
import { sinceInstant } from '../domain/since.js';
import { openStore } from '../store/open-store.js';
import { resolveSettings } from '../store/settings.js';
import { renderHistory, renderImport } from '../ui/history-output.js';

/** The submit outcomes, and `cancelled`, which only a result can be. */
const HISTORY_OUTCOMES: readonly string[] = [...outcomes, 'cancelled'];

export async function run(input: HistoryInput, ctx: Context): Promise<number> {
  if (input.outcome !== undefined && !HISTORY_OUTCOMES.includes(input.outcome)) {
    throw new UsageError(`--outcome ${JSON.stringify(input.outcome)} is not an outcome.`, `Use one of: ${HISTORY_OUTCOMES.join(', ')}.`);
  }
  let since: string | undefined;
  if (input.since !== undefined) {
    since = sinceInstant(input.since, new Date()) ?? undefined;
    if (since === undefined) throw new UsageError(`--since ${JSON.stringify(input.since)} is neither a date nor a duration.`, 'Use an ISO date (2026-05-01, 2026-05-01T12:00Z) or a duration back from now (30m, 2h, 7d).');
  }
  // The profile's store: SQLite in the home, or the team store of database-url.
  const settings = await resolveSettings({ env: ctx.env, globals: ctx.globals });
  const store = await openStore({ home: settings.paths.home, databaseUrl: settings.values['database-url'], onImport: (report) => renderImport(ctx.io, report) });
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
