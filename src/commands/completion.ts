import type { CompletionInput, Context } from '../cli-inputs.js';
import { ExitCode } from '../errors.js';
import { openConfigFile } from '../settings/config-file.js';
import { resolveHome } from '../settings/home.js';
import { writeText } from '../ui/text-output.js';

/** `econsig completion <shell>`: the script; `--profiles` (the scripts call it): the profile names. */
export async function run(input: CompletionInput, ctx: Context): Promise<number> {
  if ('script' in input) {
    writeText(ctx.io, input.script);
    return ExitCode.ok;
  }
  const names = new Set(['default', ...(await openConfigFile(resolveHome(ctx.env))).profileNames()]);
  writeText(ctx.io, `${[...names].join('\n')}\n`);
  return ExitCode.ok;
}
