import { writeFileSync } from 'node:fs';
import { text } from '../i18n/index.js';
import { resolve } from 'node:path';
import type { Context, TemplateInput } from '../cli-inputs.js';
import { EconsigError, ExitCode, UsageError } from '../errors.js';
import { langOf } from '../i18n/index.js';
import { defaultTemplateName, templateBytes } from '../sheets/template.js';
import { renderTemplateWritten, writeTemplate } from '../ui/sheet-labels.js';

export async function run(input: TemplateInput, ctx: Context): Promise<number> {
  const lang = langOf(input.lang, ctx.env);
  const bytes = await templateBytes(input.format, lang);
  if (input.output === '-') {
    if (input.format === 'xlsx' && ctx.io.stdout.isTTY) {
      throw new UsageError(text('template.binaryOnTerminal'), text('template.binaryOnTerminalHint'));
    }
    writeTemplate(ctx.io, bytes);
    return ExitCode.ok;
  }
  const path = resolve(process.cwd(), input.output ?? defaultTemplateName(input.format, lang));
  try {
    writeFileSync(path, bytes, { flag: input.force ? 'w' : 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new UsageError(text('template.exists', { path }), text('template.existsHint'));
    throw new EconsigError(text('template.cannotWrite', { path, code: code ?? String(error) }), { exitCode: ExitCode.storage, hint: text('template.cannotWriteHint'), cause: error });
  }
  renderTemplateWritten(ctx.io, path, lang);
  return ExitCode.ok;
}
