import { describe, expect, it } from 'vitest';
import { sinceInstant } from '../../../src/domain/since.js';

const now = new Date('2026-05-10T12:00:00.000Z');

describe('sinceInstant', () => {
  it.each([
    ['2h', '2026-05-10T10:00:00.000Z'],
    ['7d', '2026-05-03T12:00:00.000Z'],
    ['30m', '2026-05-10T11:30:00.000Z'],
    ['90s', '2026-05-10T11:58:30.000Z'],
    ['2w', '2026-04-26T12:00:00.000Z'],
    ['2026-05-01', '2026-05-01T00:00:00.000Z'],
    ['2026-05-01T08:30Z', '2026-05-01T08:30:00.000Z'],
    ['2026-05-01T08:30:00-03:00', '2026-05-01T11:30:00.000Z'],
    [' 1d ', '2026-05-09T12:00:00.000Z'],
  ])('%s → %s', (text, want) => {
    expect(sinceInstant(text, now)).toBe(want);
  });

  it.each(['', 'yesterday', '2h30m', '-2h', '7 d', '2026-13-01', '2026-05-01T25:00Z', '10y'])('%j is neither: null', (text) => {
    expect(sinceInstant(text, now)).toBeNull();
  });
});
