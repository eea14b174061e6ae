import type { Context, TriggerInput } from '../cli-inputs.js';
import { ExitCode, UsageError } from '../errors.js';
import { msg } from '../i18n/index.js';
import { sendTrigger, triggerTarget } from '../flows/sandbox-trigger.js';
import { resolveHome } from '../settings/home.js';
import { renderTriggered } from '../ui/trigger-output.js';

/** `econsig sandbox trigger <outcome>`: a result sent now by the running sandbox; 0 when the receiver took every copy, 7 when one was not 2xx. */
export async function run(input: TriggerInput, ctx: Context): Promise<number> {
  if ((input.contract === undefined) === (input.proposal === undefined)) throw new UsageError(msg('trigger.which'), msg('trigger.whichHint'));
  const target = triggerTarget(resolveHome(ctx.env), input.sandbox, ctx.env.ECONSIG_TOKEN);
  const answer = await sendTrigger(target, {
    outcome: input.outcome,
    ...(input.contract === undefined ? {} : { idContrato: input.contract }),
    ...(input.proposal === undefined ? {} : { idProposta: input.proposal }),
    ...(input.reason === undefined ? {} : { reason: input.reason }),
    set: input.set,
    times: input.times,
  });
  const delivered = answer.attempts.length === input.times && answer.attempts.every((a) => a.delivered);
  renderTriggered(ctx.io, { outcome: input.outcome, times: input.times, answer, ok: delivered });
  return delivered ? ExitCode.ok : ExitCode.unavailable;
}
