import { writeFileSync } from 'node:fs';
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
      throw new UsageError('an xlsx file is binary and stdout is a terminal', 'Write it to a file: econsig template -o modelo.xlsx (or pipe it).');
    }
    writeTemplate(ctx.io, bytes);
    return ExitCode.ok;
  }
  const path = resolve(process.cwd(), input.output ?? defaultTemplateName(input.format, lang));
  try {
    writeFileSync(path, bytes, { flag: input.force ? 'w' : 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new UsageError(`${path} already exists`, 'Choose another file with -o, or add --force to overwrite it.');
    throw new EconsigError(`cannot write ${path} (${code ?? String(error)})`, { exitCode: ExitCode.storage, hint: 'Check the folder and its permissions, or choose another file with -o.', cause: error });
  }
  renderTemplateWritten(ctx.io, path, lang);
  return ExitCode.ok;
}
