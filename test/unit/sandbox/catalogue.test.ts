import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpf } from 'cpf-cnpj-validator';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { BUNDLED_CATALOGUE, loadCatalogue, parseCatalogue } from '../../../src/sandbox/catalogue.js';
import { packageFilePath, packageFileText } from '../../../src/package-files.js';

describe('bundled catalogue', () => {
  const catalogue = loadCatalogue();

  it('holds the proposals and keys other parts rely on', () => {
    const byId = new Map(catalogue.proposals.map((p) => [p.idProposta, p]));
    expect(byId.get('PROP-1001')).toMatchObject({ workerCpf: '52998224725', outcome: 'approved' });
    expect(byId.get('PROP-1002')).toMatchObject({ workerCpf: '11144477735', outcome: 'denied', reason: 'Margem consignável insuficiente' });
    expect(byId.get('PROP-1003')).toMatchObject({ workerCpf: '39053344705', outcome: 'approved' });
    expect(byId.get('PROP-1004')).toMatchObject({ workerCpf: '52998224725', outcome: 'approved' });
    const keys = new Map(catalogue.pixKeys.map((k) => [k.key, k]));
    expect(keys.get('52998224725')?.contaBancaria).toEqual({ compe: '260', agencia: '0001', conta: '1234567-8', tipo: 'CORRENTE' });
    expect(keys.get('+5511987654321')?.workerCpf).toBe('11144477735');
    expect(keys.get('outra.pessoa@example.com')?.workerCpf).toBe('98765432100');
    expect(catalogue.proposals.some((p) => p.workerCpf === '98765432100')).toBe(false);
  });

  it('has PROP-2001..PROP-2100, approved, one worker each, with valid CPFs', () => {
    const batch = catalogue.proposals.filter((p) => /^PROP-2\d{3}$/.test(p.idProposta));
    expect(batch).toHaveLength(100);
    expect(batch.every((p) => p.outcome === 'approved')).toBe(true);
    expect(new Set(batch.map((p) => p.workerCpf)).size).toBe(100);
    // Independent implementation of the check digits (cpf-cnpj-validator).
    for (const w of catalogue.workers) expect(cpf.isValid(w.cpf, true), w.cpf).toBe(true);
  });

  it('is found from the module, not the working directory', () => {
    expect(packageFilePath(...BUNDLED_CATALOGUE)).toMatch(/fixtures[\\/]sandbox[\\/]catalogue\.json$/);
  });
});

describe('parseCatalogue / loadCatalogue errors', () => {
  const base = () => JSON.parse(packageFileText(...BUNDLED_CATALOGUE)) as { proposals: Record<string, unknown>[]; pixKeys: Record<string, unknown>[] };

  it.each([
    ['denied without reason', (c: ReturnType<typeof base>) => void (c.proposals[0] = { idProposta: 'X', workerCpf: '52998224725', outcome: 'denied' }), 'proposals.0.reason'],
    ['unknown worker', (c: ReturnType<typeof base>) => void (c.proposals[0] = { idProposta: 'X', workerCpf: '00000000191', outcome: 'approved' }), 'proposals.0.workerCpf'],
    ['bad outcome', (c: ReturnType<typeof base>) => void ((c.proposals[1] as { outcome: string }).outcome = 'maybe'), 'proposals.1.outcome'],
    ['bad agencia', (c: ReturnType<typeof base>) => void ((c.pixKeys[0] as { contaBancaria: { agencia: string } }).contaBancaria.agencia = '1'), 'pixKeys.0.contaBancaria.agencia'],
    ['duplicate key', (c: ReturnType<typeof base>) => void c.pixKeys.push(c.pixKeys[0] as Record<string, unknown>), `pixKeys.${5}.key`],
  ])('%s names the field', (_name, mutate, field) => {
    const data = base();
    mutate(data);
    expect(() => parseCatalogue(data, 'mine.json')).toThrow(UsageError);
    expect(() => parseCatalogue(data, 'mine.json')).toThrow(new RegExp(`mine\\.json.*${field.replace(/\./g, '\\.')}`));
  });

  it('names an unreadable or non-JSON file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'econsig-cat-'));
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{ nope');
    expect(() => loadCatalogue(file)).toThrow(/broken\.json is not JSON/);
    expect(() => loadCatalogue(join(dir, 'missing.json'))).toThrow(/Cannot read the catalogue .*missing\.json/);
  });

  it('points the hint at the README section that exists', () => {
    const hintOf = (f: () => unknown): string | undefined => {
      try {
        f();
      } catch (error) {
        return (error as UsageError).hint;
      }
      return undefined;
    };
    for (const hint of [hintOf(() => parseCatalogue({}, 'mine.json')), hintOf(() => loadCatalogue('/nonexistent/econsig.json'))]) {
      expect(hint).toContain('README, "The sandbox: the service on your machine" → "Catalogue"');
      expect(hint).not.toMatch(/docs\//);
    }
  });
});
