import { describe, expect, it } from 'vitest';
import { visibleLength, wrapLine, wrapText } from '../../../src/ui/wrap.js';

const id = '0b6c2f3e-8d1a-4c5b-9e7f-1a2b3c4d5e6f';

describe('wrapLine', () => {
  it('breaks between words, never inside a contract id, and indents the rest', () => {
    const line = `✓ /tmp/econsig-e2e-files-abc123/batch/PROP-2013.json  accepted  202 accepted: contract ${id}`;
    const lines = wrapLine(line, 80);
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(visibleLength(l)).toBeLessThanOrEqual(80);
    expect(lines.join(' ')).toContain(id);
    expect(lines[1]?.startsWith('    ')).toBe(true);
    expect(lines.map((l) => l.trim()).join(' ')).toBe(line);
  });

  it('keeps a short line, a word longer than the width, and counts colour codes as nothing', () => {
    expect(wrapLine('short', 80)).toEqual(['short']);
    const long = 'x'.repeat(100);
    expect(wrapLine(`a ${long} b`, 40)).toEqual(['a', `    ${long}`, '    b']);
    const coloured = `\x1b[32m${'word '.repeat(15).trim()}\x1b[39m`;
    expect(wrapLine(coloured, 80)).toEqual([coloured]);
  });

  it('wraps each line of a text; an unknown width changes nothing', () => {
    expect(wrapText('a b c\nd e f', 1000)).toBe('a b c\nd e f');
    expect(wrapText(`${'w '.repeat(60)}`, undefined)).toBe(`${'w '.repeat(60)}`);
    expect(wrapText(`  hint: ${'word '.repeat(30)}`, 40).split('\n').every((l) => l.length <= 40)).toBe(true);
  });
});
