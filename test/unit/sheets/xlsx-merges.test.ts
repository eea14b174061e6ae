import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type MergedRange, isMergedRow, readMergedRanges } from '../../../src/sheets/xlsx-merges.js';
import { repoRoot } from '../../e2e/run-cli.js';

const filled = (cell: unknown): boolean => cell !== null && cell !== undefined && cell !== '';
const title: MergedRange = { top: 3, bottom: 3, left: 1, right: 22 };
const pair: MergedRange = { top: 8, bottom: 8, left: 11, right: 12 };
const column: MergedRange = { top: 2, bottom: 9, left: 2, right: 2 };

describe('isMergedRow: a row whose filled cells all lie in ranges merged across columns', () => {
  it.each([
    ['a title merged across the row', 3, ['Filial Curitiba'], [title], true],
    ['the same row without the merge', 3, ['Filial Curitiba'], [], false],
    ['a data row with two cells merged', 8, ['PROP-1004', 'Santos', ...Array(8).fill('x'), 'Rua'], [pair], false],
    ['a row whose only filled cell is merged down a column (one column wide)', 4, [undefined, 'São Paulo'], [column], false],
    ['an empty row inside a merged range', 3, [], [title], false],
    ['a row below the range', 4, ['PROP-1'], [title], false],
  ] as const)('%s: %s', (_what, row, cells, ranges, merged) => {
    expect(isMergedRow(row, cells, ranges, filled)).toBe(merged);
  });
});

describe('readMergedRanges', () => {
  it.each(['merged-rows.xlsx', 'libreoffice-merged-rows.xlsx'])('reads the ranges of %s (exceljs and LibreOffice writing)', async (name) => {
    const ranges = await readMergedRanges(join(repoRoot, 'fixtures', 'sheets', name), 1);
    expect(ranges).toEqual([
      { top: 3, bottom: 3, left: 1, right: 22 },
      { top: 6, bottom: 6, left: 1, right: 22 },
      { top: 8, bottom: 8, left: 11, right: 12 },
    ]);
  });

  it('a worksheet the zip does not have: no ranges', async () => {
    expect(await readMergedRanges(join(repoRoot, 'fixtures', 'sheets', 'merged-rows.xlsx'), 9)).toEqual([]);
  });
});
