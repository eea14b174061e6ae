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

/**
 * The fast path is generated code, one function per object schema, as zod generates its own
 * object parser: field names as literals, one call site per check. Generic closures shared
 * by every object and field left each property access and check call megamorphic, about
 * 4 µs per file even once optimised.
 */
class Emitter {
  /** The values the generated code refers to (`R<n>`): patterns, checks, enum sets. */
  readonly refs: unknown[] = [];
  /** The source of each object's function (`F[<n>]`). */
  readonly functions: string[] = [];

  /** A constant of the generated code, bound once when it is compiled. */
  ref(value: unknown): string {
    return `R${this.refs.push(value) - 1}`;
  }

  /** Statements that check `v` against `checks` and return ASK when one fails. */
  checks(checks: readonly Check[]): string {
    return checks
      .map((check) => {
        const def = check._zod.def as { check: string; format?: string; pattern?: unknown; when?: unknown };
        if (def.check === 'string_format' && def.format === 'regex' && def.pattern instanceof RegExp && def.when === undefined) {
          // `.regex()`: zod's check is exactly this test of its own pattern ($ZodCheckRegex),
          // so the call, the payload and the issue list are skipped (most checks are these).
          const pattern = this.ref(def.pattern);
          return `${pattern}.lastIndex = 0;\nif (!${pattern}.test(v)) return ASK;`;
        }
        // zod sets both when it builds the check and never changes them: read once here,
        // not per value (about half the fast path's time in a fresh process).
        const run = this.ref(check._zod);
        const when = def.when === undefined ? undefined : `${this.ref(check._zod.def)}.when`;
        // As zod runs a check: skipped when its `when` says so; failed if it adds an issue or
        // changes the value; an async check is zod's to report.
        const fails = `if (${run}.check(S) instanceof Promise || S.issues.length !== 0 || S.value !== v) { S.issues.length = 0; return ASK; }`;
        return `S.value = v;\n${when === undefined ? fails : `if (${when}(S)) {\n${fails}\n}`}`;
      })
      .join('\n');
  }

  /**
   * Statements that turn `v` into the schema's output, or return ASK. `copy` false: only the
   * answer counts, so an object is not copied unless checks of its own read the copy.
   */
  value(schema: z.core.$ZodType, copy: boolean): string {
    const zod = internals(schema);
    const { def } = zod;
    switch (def.type) {
      case 'string':
        if (def.coerce) throw new Unsupported('coerced string');
        return `if (typeof v !== 'string') return ASK;\n${this.checks(checksOf(schema))}`;
      case 'enum': {
        if (!(zod.values instanceof Set)) throw new Unsupported('enum without values');
        return `if (!${this.ref(zod.values)}.has(v)) return ASK;\n${this.checks(checksOf(schema))}`;
      }
      case 'optional':
        // A check on the wrapper itself (`.optional().refine(...)`) also runs on undefined: not followed.
        if (hasOwnChecks(zod)) throw new Unsupported('checks on an optional');
        return `if (v !== undefined) {\n${this.value(def.innerType as z.core.$ZodType, copy)}\n}`;
      case 'pipe':
        // A codec is a pipe that transforms; checks on the pipe itself are not followed either.
        if (zod.traits.has('$ZodCodec') || 'transform' in def || hasOwnChecks(zod)) throw new Unsupported('codec or checks on a pipe');
        // What comes out of `in` is what `out` checks: that one is always zod's output.
        return `${this.value(def.in as z.core.$ZodType, true)}\n${this.value(def.out as z.core.$ZodType, copy)}`;
      case 'object':
        return `v = F[${this.object(schema, copy)}](v);\nif (v === ASK) return ASK;`;
      default:
        throw new Unsupported(`schema type ${def.type}`);
    }
  }

  /** The index in F of a function giving the object's output (or, not copying, the input), or ASK. */
  object(schema: z.core.$ZodType, copy: boolean): number {
    const { def } = internals(schema);
    if (def.catchall !== undefined) throw new Unsupported('object with catchall');
    const index = this.functions.push('') - 1;
    const checks = checksOf(schema);
    // Checks of the object read zod's output: then it, and all below it, is built as zod does.
    const build = copy || checks.length > 0;
    const fields = Object.entries(def.shape ?? {}).map(([key, child]) => {
      const zod = internals(child);
      // Only the two shapes of this schema: required, or optional in and out.
      const isOptional = zod.optin === 'optional' && zod.optout === 'optional';
      if (!isOptional && (zod.optin !== undefined || zod.optout !== undefined)) throw new Unsupported(`field ${key}`);
      const k = JSON.stringify(key);
      // As zod builds it: the shape's keys in the shape's order, unknown keys left out.
      const keep = build ? `\noutput[${k}] = v;` : '';
      return `if (${k} in input) {\nv = input[${k}];\n${this.value(child, build)}${keep}\n}${isOptional ? '' : ' else return ASK;'}`;
    });
    this.functions[index] = `function (input) {
if (typeof input !== 'object' || input === null || Array.isArray(input)) return ASK;
${build ? 'const output = {};' : ''}
let v;
${fields.join('\n')}
${checks.length === 0 ? '' : `v = output;\n${this.checks(checks)}`}
return ${build ? 'output' : 'input'};
}`;
    return index;
  }
}

function compile(schema: z.core.$ZodType, copy: boolean): Accept {
  const emitter = new Emitter();
  const top = emitter.value(schema, copy);
  const constants = emitter.refs.map((_, i) => `R${i} = R[${i}]`).join(', ');
  const source = `'use strict';
${constants ? `const ${constants};` : ''}
const F = [${emitter.functions.join(',\n')}];
return function (v) {
${top}
return v;
};`;
  return new Function('R', 'S', 'ASK', source)(emitter.refs, scratch, ASK_ZOD) as Accept;
}

/**
 * The fast path of `schema`: zod's output for a value zod would accept (for the values
 * it knows how to vouch for), else ASK_ZOD. A schema it cannot follow gives a function
 * that always asks zod. `output: false` when only the answer counts (validate): the same
 * answers, but what it gives back for a valid value is not zod's output, and it copies
 * nothing it need not.
 */
export function compileFastAccept(schema: z.core.$ZodType, { output = true }: { output?: boolean } = {}): Accept {
  try {
    return compile(schema, output);
  } catch (error) {
    // A schema it cannot follow, or a process that forbids generated code
    // (--disallow-code-generation-from-strings): zod alone, only slower.
    if (error instanceof Unsupported || error instanceof EvalError) return () => ASK_ZOD;
    throw error;
  }
}
