import { msg } from '../i18n/index.js';
import { resolve } from 'node:path';
import type { Context, TemplateInput } from '../cli-inputs.js';
import { EconsigError, ExitCode, UsageError } from '../errors.js';
import { writeFileSafely } from '../safe-file.js';
import { defaultTemplateName, templateBytes } from '../sheets/template.js';
import { renderTemplateWritten, writeTemplate } from '../ui/sheet-labels.js';

export async function run(input: TemplateInput, ctx: Context): Promise<number> {
  const lang = ctx.io.lang;
  const bytes = await templateBytes(input.format, lang);
  if (input.output === '-') {
    if (input.format === 'xlsx' && ctx.io.stdout.isTTY) {
      throw new UsageError(msg('sheet.templateBinaryOnTerminal'), msg('sheet.templateBinaryOnTerminalHint'));
    }
    writeTemplate(ctx.io, bytes);
    return ExitCode.ok;
  }
  const path = resolve(process.cwd(), input.output ?? defaultTemplateName(input.format, lang));
  try {
    // An empty sheet holds nobody's data: the usual mode (0666 less the umask), not 0600.
    writeFileSafely(path, bytes, { replace: input.force, mode: 0o666 });
  } catch (error) {
    if (error instanceof EconsigError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new UsageError(msg('sheet.templateExists', { path }), msg('sheet.templateExistsHint'));
    throw new EconsigError(msg('sheet.templateCannotWrite', { path, code: code ?? String(error) }), { exitCode: ExitCode.storage, hint: msg('sheet.templateCannotWriteHint'), cause: error });
  }
  renderTemplateWritten(ctx.io, path);
  return ExitCode.ok;
}
