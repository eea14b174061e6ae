/**
 * The table of everything entered, shown before the clerk submits. A person's data (a
 * document's number, the e-mail, the phone, the account, the Pix key) is masked as
 * everywhere else (src/redact.ts): the screen may be seen or captured by others.
 */
import { visibleLength, wrapLine } from '../wrap.js';
import { bankName } from '../../domain/banks.js';
import type { Issue } from '../../domain/normalize.js';
import type { FieldPath } from '../../domain/submission.js';
import { maskPersonal, personalKindOfPath } from '../../redact.js';
import type { Theme } from '../theme.js';
import { type Draft, SECTIONS, fieldKind, payoutFields, payoutModeOf } from './fields.js';
import { type Lang, say } from '../../i18n/index.js';
import { choiceLabel, fieldLabel, payoutLabel, sectionTitle } from './messages.js';

/** The summary's form of a value: a person's data masked, the rest as entered. */
export function maskValue(path: FieldPath, value: string): string {
  const kind = personalKindOfPath(path);
  return kind === undefined ? value : maskPersonal(kind, value);
}

function shown(lang: Lang, path: FieldPath, value: string, reveal = false): string {
  if (fieldKind(path) === 'select') {
    const label = choiceLabel(lang, value);
    return label.startsWith(value) ? label : `${value} (${label})`;
  }
  if (path === 'contaBancaria.compe') {
    const name = bankName(value);
    return name ? `${value} (${name})` : value;
  }
  return reveal ? value : maskValue(path, value);
}

export interface SummaryOptions {
  /** Masked digits shown in full, to check against the paper form. */
  reveal?: boolean;
  /** The terminal's height: a summary that would not fit is shown one line per section. */
  rows?: number;
  /** The terminal's width: a section's line is broken between values, not inside one. */
  columns?: number;
}

/**
 * `Title: a · b · c` as lines of at most `width` columns, broken between values; a next
 * line starts with its separator (`    · d`), so none is ever left alone at a line's end.
 * A value longer than a line is broken between its words (issue 24: an 80-character address
 * at 80 columns left a lone `·`).
 */
function packSection(title: string, values: readonly string[], width: number | undefined): string[] {
  const first = `  ${title}:`;
  if (!width) return [values.length ? `${first} ${values.join(' · ')}` : first];
  const lines: string[] = [];
  let current = first;
  let length = visibleLength(first);
  let empty = true;
  for (const value of values) {
    const separator = empty ? ' ' : ' · ';
    if (length + separator.length + visibleLength(value) <= width) {
      current += `${separator}${value}`;
      length += separator.length + visibleLength(value);
    } else {
      lines.push(current);
      const pieces = wrapLine(`${empty ? '    ' : '    · '}${value}`, width);
      lines.push(...pieces.slice(0, -1));
      current = pieces.at(-1) as string;
      length = visibleLength(current);
    }
    empty = false;
  }
  lines.push(current);
  return lines;
}

/** Lines the menu under the summary takes (question, four or five choices, key help). */
const MENU_ROWS = 8;

/** The summary as lines of text, with warnings from `validateSubmission` at the end. */
export function renderSummary(draft: Draft, lang: Lang, theme: Theme, warnings: readonly Issue[] = [], options: SummaryOptions = {}): string[] {
  const rows: { section?: string; label: string; field: string; value: string }[] = [];
  const compact: string[] = [];
  for (const section of SECTIONS) {
    rows.push({ section: sectionTitle(lang, section.id), label: '', field: '', value: '' });
    const mode = section.id === 'payout' ? payoutModeOf(draft) : undefined;
    if (mode) rows.push({ label: say(lang, 'wizard.payoutMode'), field: '', value: payoutLabel(lang, mode).name });
    const fields = section.id === 'payout' ? (mode ? payoutFields(mode) : []) : section.fields;
    const values: string[] = mode ? [payoutLabel(lang, mode).name] : [];
    for (const path of fields) {
      const value = draft.get(path);
      const text = value === undefined ? theme.muted('—') : shown(lang, path, value, options.reveal);
      rows.push({ label: fieldLabel(lang, path), field: path.slice(path.lastIndexOf('.') + 1), value: text });
      if (value !== undefined) values.push(text);
    }
    compact.push(...packSection(sectionTitle(lang, section.id), values, options.columns));
  }
  const warningLines = warnings.length
    ? [`  ${theme.warning(say(lang, 'wizard.warnings'))}`, ...warnings.map((w) => `    ${theme.warning('!')} ${w.path}: ${say({ lang, reveal: options.reveal === true }, w.message)}`)]
    : [];
  // 1 title + every row, then the menu: more than the terminal holds means the top scrolls away.
  if (options.rows !== undefined && 1 + rows.length + warningLines.length + MENU_ROWS > options.rows) {
    return [theme.strong(say(lang, 'wizard.summaryTitle')), ...compact, ...warningLines];
  }
  const labelWidth = Math.max(...rows.filter((r) => !r.section).map((r) => r.label.length));
  const fieldWidth = Math.max(...rows.map((r) => r.field.length));
  const lines = [theme.strong(say(lang, 'wizard.summaryTitle'))];
  for (const row of rows) {
    if (row.section) lines.push(`  ${theme.info(row.section)}`);
    else lines.push(`    ${row.label.padEnd(labelWidth)}  ${theme.muted(row.field.padEnd(fieldWidth))}  ${row.value}`);
  }
  return [...lines, ...warningLines];
}
