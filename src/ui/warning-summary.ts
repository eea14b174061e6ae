/**
 * Warnings for people, summarised (issue 24): a template filled the ordinary way gives
 * several rewrites a row (`01310-100` → `01310100`), and 5,000 rows of them bury the one
 * real error. Each kind of warning (its column or field, and what was done) becomes one line
 * with its count and its first example; errors stay in full elsewhere. --json keeps every
 * warning of every row: this is only the people's view. Used by validate and submit.
 */
import type { FileReport } from '../domain/report.js';
import type { Issue } from '../domain/issue.js';
import { type Voice, say } from '../i18n/index.js';
import { entryLabel, issueWhere } from './sheet-labels.js';

interface Kind {
  where: string;
  count: number;
  /** The first entry (file, or file and row) that had it, and its message. */
  first: FileReport;
  issue: Issue;
}

export interface WarningSummary {
  /** The warnings of one report (a row or a file). */
  add(report: FileReport): void;
  /** One line per kind, in the order first met (without indentation or label). */
  lines(): string[];
  /** Warnings counted so far. */
  readonly total: number;
}

export function createWarningSummary(lang: Voice): WarningSummary {
  const kinds = new Map<string, Kind>();
  let total = 0;
  return {
    add(report) {
      for (const issue of report.warnings) {
        total += 1;
        const where = issueWhere(issue, lang);
        const id = `${where}\u0000${issue.message.key}`;
        const kind = kinds.get(id);
        if (kind) kind.count += 1;
        else kinds.set(id, { where, count: 1, first: report, issue });
      }
    },
    lines() {
      const number = new Intl.NumberFormat(lang.lang);
      return [...kinds.values()].map((kind) => {
        const byRow = kind.first.row !== undefined;
        const counted = say(lang, byRow ? (kind.count === 1 ? 'validate.rowOne' : 'validate.rowMany') : kind.count === 1 ? 'validate.fileOne' : 'validate.fileMany', { n: number.format(kind.count) });
        return say(lang, 'validate.warningKind', { where: kind.where, counted, first: byRow ? say(lang, 'validate.exampleRow', { row: kind.first.row as number }) : entryLabel(kind.first, lang), message: say(lang, kind.issue.message) });
      });
    },
    get total() {
      return total;
    },
  };
}
