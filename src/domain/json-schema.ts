/**
 * The JSON Schema of a submission file (`econsig schema`), generated from the zod schemas
 * of submission.ts. A module of its own: zod's JSON Schema converter is loaded only by the
 * command that prints it.
 */
import { toJSONSchema } from 'zod';
import { BANK_FIELDS, contaBancariaSchema, submissionSchema } from './submission.js';

/** The JSON Schema of a submission file, generated from the same zod schemas. */
export function submissionJsonSchema(): Record<string, unknown> {
  const schema = toJSONSchema(submissionSchema, {
    target: 'draft-2020-12',
    unrepresentable: 'any',
    override: (ctx) => {
      // The either/or rule of contaBancaria lives in a refinement, which JSON Schema cannot
      // see; state it for editors.
      if (ctx.zodSchema === contaBancariaSchema) {
        ctx.jsonSchema.anyOf = [{ required: [...BANK_FIELDS] }, { required: ['chavePix'] }];
      }
    },
  });
  return schema as Record<string, unknown>;
}
