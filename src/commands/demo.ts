import type { Context, DemoInput } from '../cli-inputs.js';
import { runDemo } from '../flows/run-demo.js';
import { submitExitCode } from '../flows/run-submit.js';
import { renderDemoEnd, renderDemoStart, renderDemoValidated } from '../ui/demo-output.js';
import { createSubmitProgress, renderSubmitResults } from '../ui/submit-output.js';

export async function run(input: DemoInput, ctx: Context): Promise<number> {
  const progress = await createSubmitProgress(ctx.io, 1);
  let outcome;
  try {
    outcome = await runDemo({
      delayMs: input.delay * 1000,
      signal: ctx.signal,
      now: () => new Date(),
      steps: {
        onValidated: (report) => renderDemoValidated(ctx.io, report),
        onStarted: (info) => renderDemoStart(ctx.io, info),
        progress,
      },
    });
  } finally {
    progress.stop();
  }
  renderSubmitResults(ctx.io, outcome.results, { interrupted: ctx.signal.aborted });
  const code = outcome.results.length ? submitExitCode(outcome.results) : outcome.report.exitCode;
  renderDemoEnd(ctx.io, code === 0);
  return code;
}
