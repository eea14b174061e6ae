import type { Context, SettleInput } from '../cli-inputs.js';
import { ExitCode, UsageError } from '../errors.js';
import { settleProposal } from '../flows/settle.js';
import { msg } from '../i18n/index.js';
import { openStore } from '../record/open.js';
import { guardService, resolveSettings } from '../settings/settings.js';
import { renderStoreNotice } from '../ui/history-output.js';
import { renderSettled } from '../ui/settle-output.js';

/** `econsig settle <idProposta> --contract <id> | --not-sent`: exit 0, or 4 when nothing of the proposal is unknown. */
export async function run(input: SettleInput, ctx: Context): Promise<number> {
  if ((input.contract === undefined) === !input.notSent) {
    throw new UsageError(msg('settle.oneOf'), msg('settle.oneOfHint', { id: input.idProposta }));
  }
  // The profile's service (service-id, or its base URL's identity) and store, as submit keys them.
  const settings = await resolveSettings({ env: ctx.env, globals: ctx.globals });
  const service = guardService(settings);
  const store = await openStore({ home: settings.paths.home, databaseUrl: settings.values['database-url'], onNotice: (notice) => renderStoreNotice(ctx.io, notice) });
  try {
    const settled = await settleProposal(store, { idProposta: input.idProposta, service, contract: input.contract ?? null, now: new Date() });
    renderSettled(ctx.io, settled);
  } finally {
    await store.close();
  }
  return ExitCode.ok;
}
