import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ASK_ZOD, compileFastAccept } from '../../../src/domain/fast-accept.js';
import { normalizeSubmission } from '../../../src/domain/normalize.js';
import { submissionSchema } from '../../../src/domain/submission.js';

const fixtures = new URL('../../../fixtures/', import.meta.url).pathname;
const fast = compileFastAccept(submissionSchema);
const check = compileFastAccept(submissionSchema, { output: false });

/**
 * The one property that matters: when the fast path answers, zod accepts the same value
 * and gives the very same output (key order included, as it is what gets sent). And it
 * should answer whenever zod accepts, or it saves nothing.
 */
function agrees(value: unknown): string | undefined {
  const answer = fast(value);
  // The answer-only variant (validate) must answer exactly as the copying one.
  if ((check(value) === ASK_ZOD) !== (answer === ASK_ZOD)) return 'the answer-only fast path answered differently';
  const zod = submissionSchema.safeParse(value);
  if (answer !== ASK_ZOD) {
    if (!zod.success) return `fast path accepted what zod rejects: ${JSON.stringify(zod.error.issues.map((i) => i.path.join('.')))}`;
    if (JSON.stringify(answer) !== JSON.stringify(zod.data)) return `outputs differ:\n${JSON.stringify(answer)}\n${JSON.stringify(zod.data)}`;
    return undefined;
  }
  return zod.success ? 'zod accepts but the fast path asked zod' : undefined;
}

function documents(folder: string): Array<[string, unknown]> {
  return readdirSync(join(fixtures, folder))
    .filter((name) => name.endsWith('.json'))
    .flatMap((name): Array<[string, unknown]> => {
      try {
        return [[`${folder}/${name}`, JSON.parse(readFileSync(join(fixtures, folder, name), 'utf8').replace(/^\uFEFF/, ''))]];
      } catch {
        return []; // not-json, empty: never reach the schema
      }
    });
}

const base = JSON.parse(readFileSync(join(fixtures, 'valid/bank-and-pix.json'), 'utf8')) as Record<string, unknown>;

/** Every leaf and object path of a document, as key lists. */
function paths(value: unknown, prefix: string[] = []): string[][] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return [prefix, ...Object.entries(value).flatMap(([key, child]) => paths(child, [...prefix, key]))].filter((p) => p.length > 0);
}

const DELETE = Symbol('delete');
const EDGE_VALUES: unknown[] = [
  DELETE, null, 0, 12, true, '', ' ', 'x', '0', '00000000', '01310100', '1234-5', '12345-6', '1234567890123456789-0',
  '341', '0001', 'SP', 'XX', 'sp', 'RG', 'CNH', 'CORRENTE', 'POUPANCA', 'CASADO', '2015-03-21', '2015-02-30',
  '9999-12-31', '+5511912345678', '+5520912345678', 'maria@example.com', 'maria@', '52998224725', '52998224724',
  '123e4567-e89b-42d3-a456-426614174000', '00000000119', 'AB123456789', 'ação', [], {}, ['SP'], { a: 1 },
];

function withValue(doc: unknown, path: string[], value: unknown): unknown {
  const copy = structuredClone(doc) as Record<string, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    // An earlier fault replaced a parent with something else: this one has nowhere to go.
    if (typeof next !== 'object' || next === null) return copy;
    node = next as Record<string, unknown>;
  }
  const last = path[path.length - 1] as string;
  if (value === DELETE) delete node[last];
  else node[last] = value;
  return copy;
}

describe('the fast path compiled from the zod schema', () => {
  it.each([...documents('valid'), ...documents('invalid'), ...documents('warnings')])('%s: same answer as zod, as given and normalised', (_name, doc) => {
    expect(agrees(doc)).toBeUndefined();
    if (typeof doc === 'object' && doc !== null && !Array.isArray(doc)) {
      expect(agrees(normalizeSubmission(doc as Record<string, unknown>).value)).toBeUndefined();
    }
  });

  it('accepts the valid fixtures (it is used, not only safe)', () => {
    for (const [, doc] of documents('valid')) expect(fast(doc)).not.toBe(ASK_ZOD);
  });

  it('agrees with zod on every field of every valid example set to each edge value', () => {
    const failures: string[] = [];
    let checked = 0;
    for (const [name, doc] of documents('valid')) {
      for (const path of paths(doc)) {
        for (const value of EDGE_VALUES) {
          const problem = agrees(withValue(doc, path, value));
          checked++;
          if (problem) failures.push(`${name} ${path.join('.')} = ${String(value)}: ${problem}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(2500);
  });

  it('agrees with zod on 3,000 documents with two to four random faults each (seeded)', () => {
    let seed = 20261122;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const all = paths(base);
    const failures: string[] = [];
    let accepted = 0;
    for (let i = 0; i < 3000; i++) {
      let doc: unknown = base;
      for (let k = 2 + random(3); k > 0; k--) doc = withValue(doc, all[random(all.length)] as string[], EDGE_VALUES[random(EDGE_VALUES.length)]);
      const problem = agrees(doc);
      if (problem) failures.push(`${JSON.stringify(doc)}: ${problem}`);
      if (fast(doc) !== ASK_ZOD) accepted++;
    }
    expect(failures).toEqual([]);
    expect(accepted).toBeGreaterThan(50); // some random faults leave a valid document: both paths are exercised
  });

  it('gives zod\'s key order, not the input\'s, and leaves unknown keys out', () => {
    const shuffled = {
      contaBancaria: { chavePix: '52998224725' },
      extra: 'x',
      pessoa: Object.fromEntries(Object.entries(base.pessoa as object).reverse()),
      idProposta: 'PROP-1001',
    };
    expect(agrees(shuffled)).toBeUndefined();
    expect(Object.keys(fast(shuffled) as object)).toEqual(['idProposta', 'pessoa', 'contaBancaria']);
  });

  it('never vouches past a check on an optional or a pipe, nor through a codec (zod decides those)', () => {
    const upper = z.codec(z.string(), z.string(), { decode: (v) => v.toUpperCase(), encode: (v) => v.toLowerCase() });
    const cases: Array<[string, z.core.$ZodType, unknown[]]> = [
      ['pipe().refine', z.string().pipe(z.string()).refine((v) => v !== 'x'), ['x', 'y']],
      ['optional().refine', z.string().optional().refine((v) => v !== 'x'), ['x', 'y', undefined]],
      ['codec', upper, ['abc']],
      ['object with optional().check in its shape', z.object({ a: z.string().optional().check((ctx) => void (ctx.value === 'x' && ctx.issues.push({ code: 'custom', message: 'no x', input: ctx.value }))) }), [{ a: 'x' }, { a: 'y' }, {}]],
    ];
    const wrong: string[] = [];
    for (const [name, schema, values] of cases) {
      const accept = compileFastAccept(schema);
      for (const value of values) {
        const answer = accept(value);
        if (answer === ASK_ZOD) continue;
        const zod = z.safeParse(schema, value);
        if (!zod.success || JSON.stringify(zod.data) !== JSON.stringify(answer)) wrong.push(`${name} ${JSON.stringify(value)}: fast ${JSON.stringify(answer)}, zod ${zod.success ? JSON.stringify(zod.data) : 'rejects'}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answer-only: an object whose checks read a nested object still gets zod\'s copy of it', () => {
    // zod strips unknown keys before the object's checks run: this check can never pass in zod.
    const schema = z.object({ inner: z.object({ a: z.string() }) }).check((ctx) => {
      if (!('extra' in (ctx.value.inner as object))) ctx.issues.push({ code: 'custom', message: 'no extra', input: ctx.value });
    });
    const value = { inner: { a: 'x', extra: 1 } };
    expect(z.safeParse(schema, value).success).toBe(false);
    expect(compileFastAccept(schema, { output: false })(value)).toBe(ASK_ZOD);
    expect(compileFastAccept(schema)(value)).toBe(ASK_ZOD);
  });

  it('declines every value of a schema it cannot follow (a transform, a number, a catch-all)', () => {
    for (const schema of [z.string().trim(), z.number(), z.object({ a: z.string() }).catchall(z.string()), z.string().default('x')]) {
      const declined = compileFastAccept(schema);
      for (const value of ['a', ' a ', 1, {}, { a: 'b' }]) expect(declined(value)).toBe(ASK_ZOD);
    }
  });
});
