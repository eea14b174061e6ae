import type { Context, VersionInput } from '../cli-inputs.js';
import { ExitCode } from '../errors.js';
import { versionText } from '../package-files.js';
import { writeText } from '../ui/text-output.js';

/** `econsig version`: what --version says (issue 24, as `gh version`). */
export async function run(_input: VersionInput, ctx: Context): Promise<number> {
  writeText(ctx.io, `${versionText()}\n`);
  return ExitCode.ok;
}
