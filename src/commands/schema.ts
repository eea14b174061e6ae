import type { Context, SchemaInput } from '../cli-inputs.js';
import { ExitCode } from '../errors.js';
import { submissionJsonSchema } from '../domain/json-schema.js';

export async function run(_input: SchemaInput, ctx: Context): Promise<number> {
  ctx.io.stdout.write(`${JSON.stringify(submissionJsonSchema(), null, 2)}\n`);
  return ExitCode.ok;
}
