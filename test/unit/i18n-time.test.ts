import { afterEach, describe, expect, it } from 'vitest';
import { formatLocalTime, localTime, msg, say } from '../../src/i18n/index.js';

const zone = process.env.TZ;
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('a moment as people read it: the machine\'s zone, with its offset (issue 24)', () => {
  it.each([
    ['America/Sao_Paulo', '2026-11-27T04:36:35.691Z', '2026-11-27 01:36:35 -03:00'],
    ['UTC', '2026-11-27T04:36:35.691Z', '2026-11-27 04:36:35 +00:00'],
    ['Asia/Kolkata', '2026-01-02T03:04:05.000Z', '2026-01-02 08:34:05 +05:30'],
  ])('%s: %s → %s', (tz, iso, shown) => {
    process.env.TZ = tz;
    expect(formatLocalTime(iso)).toBe(shown);
    expect(say('pt-BR', msg('run.forcedSubmission', { when: localTime(iso) }))).toContain(shown);
  });

  it('text that is no moment stays as it is', () => {
    expect(formatLocalTime('—')).toBe('—');
  });
});
