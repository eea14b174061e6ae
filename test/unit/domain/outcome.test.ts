import { describe, expect, it } from 'vitest';
import { batchExitCode, exitCodeFor, outcomes, type Outcome } from '../../../src/domain/outcome.js';

// docs/cli-contract.md "Exit codes" and "Machine-readable output".
const table: Array<[Outcome, number]> = [
  ['invalid', 1],
  ['unreadable', 2], // a file that could not be read (issue 24: was invalid with exit 2)
  ['accepted', 0],
  ['approved', 0],
  ['denied', 8],
  ['timeout', 9],
  ['not_found', 4],
  ['rejected', 5],
  ['unauthorized', 3],
  ['rate_limited', 6],
  ['unavailable', 7],
  ['unknown', 7],
  ['skipped', 5],
];

describe('exitCodeFor', () => {
  it('knows exactly the outcomes of the contract', () => expect([...outcomes].sort()).toEqual(table.map(([o]) => o).sort()));
  it.each(table)('%s → %i', (outcome, code) => expect(exitCodeFor(outcome)).toBe(code));
});

describe('batchExitCode', () => {
  it.each<[Outcome[], number]>([
    [[], 0],
    [['accepted'], 0],
    [['accepted', 'approved', 'accepted'], 0],
    [['invalid'], 1],
    [['accepted', 'denied', 'timeout'], 8],
    [['timeout', 'denied'], 9],
    [['approved', 'skipped', 'invalid'], 5],
    [['accepted', 'unknown', 'unauthorized'], 7],
    [['rate_limited', 'not_found'], 6],
  ])('%j → %i', (list, code) => expect(batchExitCode(list)).toBe(code));
});
