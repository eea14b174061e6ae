/**
 * `econsig store prune` and `econsig store forget` (docs/cli-contract.md "Personal data",
 * docs/privacy.md): the flags checked before the store opens, one call of the record, the
 * report to ui/.
 */
import type { Context, StoreInput } from '../cli-inputs.js';
import { ExitCode, UsageError } from '../errors.js';
import { isValidCpf } from '../domain/brazil.js';
import { sinceInstant } from '../domain/since.js';
import { msg, personal } from '../i18n/index.js';
import { openSettingsStore } from '../record/open.js';
import { systemUser } from '../flows/runs.js';
import type { ForgetTarget } from '../record/record.js';
import { resolveSettings } from '../settings/settings.js';
import { renderStoreNotice } from '../ui/history-output.js';
import { renderForgotten, renderPruned } from '../ui/store-output.js';

const CPF_PUNCTUATION = /[.\-\s]/g;

/** What `store forget` is asked to forget, checked: one CPF (valid check digits) or one proposal. */
export function forgetTarget(input: Extract<StoreInput, { action: 'forget' }>): ForgetTarget {
  const cpf = input.cpf?.trim();
  const proposal = input.proposal?.trim();
  if ((cpf === undefined) === (proposal === undefined) || cpf === '' || proposal === '') {
    throw new UsageError(msg('store.forgetWhich'), msg('store.forgetWhichHint'));
  }
  if (proposal !== undefined) return { kind: 'proposal', idProposta: proposal };
  const digits = (cpf as string).replace(CPF_PUNCTUATION, '');
  if (!isValidCpf(digits)) throw new UsageError(msg('store.badCpf', { value: personal('cpf', cpf as string) }), msg('store.badCpfHint'));
  return { kind: 'cpf', cpf: digits };
}

export async function run(input: StoreInput, ctx: Context): Promise<number> {
  const now = new Date();
  let before: string | undefined;
  let target: ForgetTarget | undefined;
  if (input.action === 'prune') {
    if (input.before === undefined) throw new UsageError(msg('store.beforeMissing'), msg('store.beforeHint'));
    before = sinceInstant(input.before, now) ?? undefined;
    if (before === undefined) throw new UsageError(msg('store.badBefore', { value: JSON.stringify(input.before) }), msg('store.beforeHint'));
  } else {
    target = forgetTarget(input);
  }
  // The profile's store: SQLite in the home, or the team store of database-url.
  const settings = await resolveSettings({ env: ctx.env, globals: ctx.globals });
  const store = await openSettingsStore(settings, (notice) => renderStoreNotice(ctx.io, notice));
  try {
    if (before !== undefined) renderPruned(ctx.io, await store.prune(before));
    if (target !== undefined && input.action === 'forget') {
      renderForgotten(ctx.io, await store.forget({ target, dryRun: input.dryRun, at: now.toISOString(), by: systemUser() }));
    }
  } finally {
    await store.close();
  }
  return ExitCode.ok;
}
