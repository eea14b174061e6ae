/**
 * A fast "certainly valid" for the common case, compiled from the zod schemas themselves.
 *
 * zod stays the one source of the rules: this walks a schema's definition once and, for
 * each value, calls zod's own checks (the same regex, length and custom-rule objects),
 * without zod's per-value scaffolding (a payload, a context and an issue list per field:
 * in a fresh process about 11 µs per file plus the garbage it leaves, then the largest part
 * of `validate` over 10,000 files). It only ever says "valid, and here is zod's output" or "ask zod": every
 * error message still comes from zod. A schema part it does not know (a transform, a
 * default, a coercion...) makes it decline every value; the result is then exactly zod's,
 * only slower. test/unit/domain/fast-accept.test.ts holds it to zod's answers.
 */
import type { z } from 'zod';

/** Returned when the fast path cannot vouch for a value: run zod. */
export const ASK_ZOD: unique symbol = Symbol('ask zod');

type Accept = (value: unknown) => unknown;

interface Payload {
  value: unknown;
  issues: unknown[];
}

interface Check {
  _zod: { check(payload: Payload): unknown; def: { check: string; when?: (payload: Payload) => boolean } };
}

interface Internals {
  def: {
    type: string;
    checks?: Check[];
    coerce?: boolean;
    shape?: Record<string, z.core.$ZodType>;
    catchall?: unknown;
    innerType?: z.core.$ZodType;
    in?: z.core.$ZodType;
    out?: z.core.$ZodType;
  };
  traits: Set<string>;
  values?: Set<unknown>;
  optin?: string;
  optout?: string;
}

class Unsupported extends Error {}

const internals = (schema: z.core.$ZodType): Internals => (schema as unknown as { _zod: Internals })._zod;

// Checks that can change the value (trim, toLowerCase...) are transforms: not followed.
const VALUE_CHECKS = new Set(['string_format', 'max_length', 'min_length', 'length_equals', 'custom']);

/** The checks zod runs on a schema, in zod's order: the schema itself first when it is one. */
function checksOf(schema: z.core.$ZodType): Check[] {
  const zod = internals(schema);
  const list = [...(zod.traits.has('$ZodCheck') ? [schema as unknown as Check] : []), ...(zod.def.checks ?? [])];
  for (const check of list) {
    if (!VALUE_CHECKS.has(check._zod.def.check)) throw new Unsupported(`check ${check._zod.def.check}`);
  }
  return list;
}

/** Checks attached to the schema itself (or the schema being a check). */
function hasOwnChecks(zod: Internals): boolean {
  return (zod.def.checks?.length ?? 0) > 0 || zod.traits.has('$ZodCheck');
}

// One payload for every check call: a check that passes leaves it as it was.
const scratch: Payload = { value: undefined, issues: [] };

function passes(checks: readonly Check[], value: unknown): boolean {
  for (const check of checks) {
    scratch.value = value;
    if (check._zod.def.when && !check._zod.def.when(scratch)) continue;
    const result = check._zod.check(scratch);
    if (result instanceof Promise) throw new Unsupported('async check');
    if (scratch.issues.length > 0 || scratch.value !== value) {
      scratch.issues.length = 0;
      return false;
    }
  }
  return true;
}

function compile(schema: z.core.$ZodType): Accept {
  const zod = internals(schema);
  const { def } = zod;
  switch (def.type) {
    case 'string': {
      if (def.coerce) throw new Unsupported('coerced string');
      const checks = checksOf(schema);
      return (value) => (typeof value === 'string' && passes(checks, value) ? value : ASK_ZOD);
    }
    case 'enum': {
      const values = zod.values;
      if (!(values instanceof Set)) throw new Unsupported('enum without values');
      const checks = checksOf(schema);
      return (value) => (values.has(value) && passes(checks, value) ? value : ASK_ZOD);
    }
    case 'optional': {
      // A check on the wrapper itself (`.optional().refine(...)`) also runs on undefined: not followed.
      if (hasOwnChecks(zod)) throw new Unsupported('checks on an optional');
      const inner = compile(def.innerType as z.core.$ZodType);
      return (value) => (value === undefined ? undefined : inner(value));
    }
    case 'pipe': {
      // A codec is a pipe that transforms; checks on the pipe itself are not followed either.
      if (zod.traits.has('$ZodCodec') || 'transform' in def || hasOwnChecks(zod)) throw new Unsupported('codec or checks on a pipe');
      const first = compile(def.in as z.core.$ZodType);
      const then = compile(def.out as z.core.$ZodType);
      return (value) => {
        const mid = first(value);
        return mid === ASK_ZOD ? ASK_ZOD : then(mid);
      };
    }
    case 'object':
      return compileObject(schema);
    default:
      throw new Unsupported(`schema type ${def.type}`);
  }
}

function compileObject(schema: z.core.$ZodType): Accept {
  const { def } = internals(schema);
  if (def.catchall !== undefined) throw new Unsupported('object with catchall');
  // Parallel arrays and an index loop: this runs four times per file, mostly not yet optimised.
  const keys: string[] = [];
  const optional: boolean[] = [];
  const accepts: Accept[] = [];
  for (const [key, child] of Object.entries(def.shape ?? {})) {
    const zod = internals(child);
    // Only the two shapes of this schema: required, or optional in and out.
    const isOptional = zod.optin === 'optional' && zod.optout === 'optional';
    if (!isOptional && (zod.optin !== undefined || zod.optout !== undefined)) throw new Unsupported(`field ${key}`);
    keys.push(key);
    optional.push(isOptional);
    accepts.push(compile(child));
  }
  const checks = checksOf(schema);
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return ASK_ZOD;
    const input = value as Record<string, unknown>;
    // As zod builds it: the shape's keys in the shape's order, unknown keys left out.
    const output: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      if (!(key in input)) {
        if (optional[i]) continue;
        return ASK_ZOD;
      }
      const accepted = (accepts[i] as Accept)(input[key]);
      if (accepted === ASK_ZOD) return ASK_ZOD;
      output[key] = accepted;
    }
    return checks.length === 0 || passes(checks, output) ? output : ASK_ZOD;
  };
}

/**
 * The fast path of `schema`: zod's output for a value zod would accept (for the values
 * it knows how to vouch for), else ASK_ZOD. A schema it cannot follow gives a function
 * that always asks zod.
 */
export function compileFastAccept(schema: z.core.$ZodType): Accept {
  try {
    return compile(schema);
  } catch (error) {
    if (error instanceof Unsupported) return () => ASK_ZOD;
    throw error;
  }
}
