/**
 * Validation of one submission: normalise (each change a warning), check the zod schema,
 * then the rules that span fields. Returns every problem; throws nothing.
 */
import type { z } from 'zod';
import { localIsoDate } from './brazil.js';
import { formulaWarnings } from './formula.js';
import { ROOT_PATH } from './issue.js';
import { type Issue, normalizeSubmission } from './normalize.js';
import { checkRules } from './rules.js';
import { type Submission, messageOfZod, submissionSchema } from './submission.js';
import { type Message, msg } from '../i18n/index.js';

export type { Issue } from './normalize.js';

export interface ValidationResult {
  /** The normalised submission, present when there are no errors: what would be sent. */
  value?: Submission;
  errors: Issue[];
  warnings: Issue[];
}

export interface ValidateOptions {
  now: Date;
  /**
   * false: check the document exactly as given, as the service would (the sandbox does);
   * no rewrite, no warning about unknown fields.
   */
  normalize?: boolean;
}

export { ROOT_PATH } from './issue.js';

function describeJsonValue(value: unknown): Message {
  if (value === null) return msg('rule.found.null');
  if (Array.isArray(value)) return msg('rule.found.array', { n: value.length });
  if (typeof value === 'string') return msg('rule.found.string');
  if (typeof value === 'number') return msg('rule.found.number');
  return msg('rule.found.boolean');
}

/** Dotted path of a zod issue, e.g. `pessoa.endereco.cep`. */
export function dottedPath(path: readonly PropertyKey[]): string {
  return path.length ? path.map(String).join('.') : ROOT_PATH;
}

function issuesFromZod(error: z.ZodError): Issue[] {
  return error.issues.map((issue) => ({ path: dottedPath(issue.path), message: messageOfZod(issue) }));
}

/** Validate one parsed JSON document as a submission. */
export function validateSubmission(input: unknown, options: ValidateOptions): ValidationResult {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return {
      errors: [
        {
          path: ROOT_PATH,
          message: msg('rule.notOneObject', { found: describeJsonValue(input) }),
        },
      ],
      warnings: [],
    };
  }
  const { value: candidate, warnings } =
    options.normalize === false
      ? { value: input as Record<string, unknown>, warnings: [] as Issue[] }
      : normalizeSubmission(input as Record<string, unknown>);

  const parsed = submissionSchema.safeParse(candidate);
  const errors = parsed.success ? [] : issuesFromZod(parsed.error);
  const rules = checkRules(candidate, localIsoDate(options.now));
  errors.push(...rules.errors);
  if (options.normalize !== false) warnings.push(...rules.warnings, ...formulaWarnings(candidate, errors));

  return parsed.success && errors.length === 0 ? { value: parsed.data, errors, warnings } : { errors, warnings };
}
