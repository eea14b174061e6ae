import type { Context, SchemaInput } from '../cli-inputs.js';
import { ExitCode } from '../errors.js';
import { submissionJsonSchema } from '../domain/json-schema.js';
import { writeSchema } from '../ui/schema-output.js';

export async function run(_input: SchemaInput, ctx: Context): Promise<number> {
  writeSchema(ctx.io, submissionJsonSchema());
  return ExitCode.ok;
}
