/**
 * A receiver's check (`events check`) as people read it, in the run's language, and as its
 * --json document gives it, in English (docs/cli-contract.md "Events").
 */
import { describe, expect, it } from 'vitest';
import type { CheckRow } from '../../../src/flows/check-receiver.js';
import { renderCheck, renderCheckRow } from '../../../src/ui/events-output.js';
import { captureIo } from './capture.js';

const unreachable: CheckRow = { name: 'retry', attempts: [{ httpStatus: 401, error: null, delivered: false }, { httpStatus: null, error: 'ECONNREFUSED', delivered: false }], ok: false };

describe('events check rows', () => {
  it.each([
    ['en', '✗ retry: the same webhook-id after a refused attempt, fresh timestamp  expected: 4xx, then 2xx  got: 401, no answer (ECONNREFUSED)\n'],
    ['pt-BR', '✗ nova tentativa (retry): o mesmo webhook-id após uma tentativa recusada, timestamp novo  esperado: 4xx, depois 2xx  recebido: 401, sem resposta (ECONNREFUSED)\n'],
  ] as const)('%s: the scenario, what was expected and each answer in the run\'s language', (lang, line) => {
    const { io, stdout } = captureIo(lang);
    renderCheckRow(io, unreachable);
    expect(stdout()).toBe(line);
  });

  it('--json: the rows in English whatever the language', () => {
    const { io, stdout } = captureIo('pt-BR', true);
    renderCheck(io, 'http://127.0.0.1:3000/h', { ok: false, rows: [unreachable] });
    expect(JSON.parse(stdout())).toEqual({
      ok: false,
      rows: [{ scenario: 'retry: the same webhook-id after a refused attempt, fresh timestamp', expected: '4xx, then 2xx', got: '401, no answer (ECONNREFUSED)', ok: false }],
    });
  });
});
