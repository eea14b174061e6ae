/**
 * Lines for a terminal of `width` columns, broken between words (issue 14: at 80x24 words
 * and contract ids broke mid-word). A continuation keeps the line's indent, plus four. A
 * word longer than the width stays whole on its own line, and so does a command to copy on
 * a line of its own (`  econsig submit -i --file ...`). Colour codes take no columns.
 */
const ANSI = /\x1b\[[0-9;]*m/g;

export function visibleLength(text: string): number {
  return text.replace(ANSI, '').length;
}

/** A command to copy, on a line of its own: never broken (issue 24: pasted, it must run whole). */
const COMMAND_LINE = /^\s*econsig /;

export function wrapLine(line: string, width: number): string[] {
  if (width < 20 || visibleLength(line) <= width || COMMAND_LINE.test(line.replace(ANSI, ''))) return [line];
  const indent = /^\s*/.exec(line.replace(ANSI, ''))?.[0].length ?? 0;
  const next = ' '.repeat(Math.min(indent + 4, Math.floor(width / 3)));
  const words = line.trimStart().split(' ');
  const out: string[] = [];
  let current = ' '.repeat(indent);
  let currentLength = indent;
  let empty = true;
  for (const word of words) {
    const length = visibleLength(word);
    if (!empty && currentLength + 1 + length > width) {
      out.push(current);
      current = next;
      currentLength = next.length;
      empty = true;
    }
    current += empty ? word : ` ${word}`;
    currentLength += empty ? length : length + 1;
    empty = false;
  }
  out.push(current);
  return out;
}

/** Every line (a text may hold several) wrapped to `width`; unchanged when the width is unknown. */
export function wrapText(text: string, width: number | undefined): string {
  if (!width) return text;
  return text
    .split('\n')
    .flatMap((line) => wrapLine(line, width))
    .join('\n');
}

/** The width of a terminal stream; undefined for a pipe, a file or CI, which are not wrapped. */
export function widthOf(stream: { isTTY?: boolean; columns?: number }): number | undefined {
  return stream.isTTY ? stream.columns : undefined;
}

/** Write people's text to `stream`, wrapped between words when it is a terminal. */
export function writeWrapped(stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number }, text: string): void {
  stream.write(wrapText(text, widthOf(stream)));
}
