/**
 * A run's ledger as a report people look at (docs/cli-contract.md, "Runs"): `runs show
 * --report` writes HTML (self-contained: its chart is inline SVG, nothing is fetched), xlsx
 * (a summary sheet first) or Markdown (for CI pages); `submit` and `runs wait` append the
 * Markdown to GITHUB_STEP_SUMMARY. The words are in the run's language; a person's data in a
 * reason is masked unless --reveal. Files are written by the one safe writer (safe-file.ts).
 */
import { EconsigError, ExitCode, UsageError } from '../errors.js';
import { type Lang, type Voice, formatLocalTime, msg, say } from '../i18n/index.js';
import type { Ledger } from '../domain/report.js';
import type { RunView } from '../flows/runs.js';
import { appendToFile, checkOutputPath, writeFileSafely } from '../safe-file.js';
import type { Io } from './io.js';
import { ALL_PARTS, CHART_PARTS, groupHeading, ledgerLines, needingPerson, partName, reasonOf, whereOf } from './runs-output.js';
import { createTheme } from './theme.js';

type Format = 'html' | 'xlsx' | 'md';

function formatOf(path: string): Format {
  const extension = /\.(html?|xlsx|md)$/i.exec(path)?.[1]?.toLowerCase();
  if (extension === undefined) throw new UsageError(msg('runs.reportExtension', { path }), msg('runs.reportExtensionHint'));
  return extension === 'xlsx' ? 'xlsx' : extension === 'md' ? 'md' : 'html';
}

/** Before the store opens: a report path econsig cannot write in that format, or will not write at all, is refused. */
export function checkReportPath(path: string): void {
  formatOf(path);
  checkOutputPath(path);
}

/** The run's language (its reports speak it), and whether a person's data is shown whole. */
function voiceOf(io: Io, view: RunView): Voice {
  return { lang: view.run.lang === 'pt-BR' ? 'pt-BR' : ('en' satisfies Lang), reveal: io.reveal };
}

/** Colours of the chart's bars, by part. */
const COLOURS: Record<(typeof CHART_PARTS)[number], string> = {
  approved: '#2e7d32',
  denied: '#c62828',
  cancelled: '#8e24aa',
  waiting: '#f9a825',
  unknown: '#ef6c00',
  rejected: '#ad1457',
  notFound: '#6d4c41',
  notSent: '#546e7a',
  skipped: '#90a4ae',
  invalid: '#b0bec5',
};

/** The rows of the table of what needs a person: heading, then file, proposal, contract, reason. */
function needsRows(voice: Voice, view: RunView, usualMs: number): Array<{ heading: string; rows: string[][] }> {
  return needingPerson(view, usualMs).map(({ group, inputs }) => ({
    heading: groupHeading(voice, group, inputs.length, usualMs),
    rows: inputs.map((input) => [whereOf(input), input.idProposta ?? '', input.idContrato ?? '', reasonOf(voice, input) ?? '']),
  }));
}

const columns = (voice: Voice): string[] => ['runs.col_file', 'runs.col_proposal', 'runs.col_contract', 'runs.col_reason'].map((key) => say(voice, key as 'runs.col_file'));

/** The Markdown ledger: a table of the parts, and one of what needs a person. */
export function markdownReport(voice: Voice, view: RunView, usualMs: number): string {
  const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
  const [inputsLine, acceptedLine] = ledgerLines(voice, view.ledger);
  const lines = [
    `### ${cell(say(voice, 'runs.reportTitle', { id: view.run.id }))}`,
    '',
    `${cell(inputsLine)}  `,
    cell(acceptedLine),
    '',
    `| ${say(voice, 'runs.col_part')} | ${say(voice, 'runs.col_count')} |`,
    '| --- | ---: |',
    ...CHART_PARTS.map((part) => `| ${partName(voice, part)} | ${view.ledger[part]} |`),
    '',
    `#### ${say(voice, 'runs.reportNeeds')}`,
    '',
  ];
  const groups = needsRows(voice, view, usualMs);
  if (groups.length === 0) lines.push(say(voice, 'runs.reportNothing'), '');
  for (const { heading, rows } of groups) {
    lines.push(`**${cell(heading)}**`, '', `| ${columns(voice).join(' | ')} |`, '| --- | --- | --- | --- |', ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`), '');
  }
  return `${lines.join('\n')}\n`;
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The chart: one bar per part of the ledger, its count beside it; inline SVG, no script, nothing fetched. */
function chartSvg(voice: Voice, ledger: Ledger): string {
  const rowHeight = 28;
  const width = 640;
  const barArea = 400;
  const most = Math.max(1, ...CHART_PARTS.map((part) => ledger[part]));
  const bars = CHART_PARTS.map((part, i) => {
    const y = i * rowHeight + 4;
    const n = ledger[part];
    const w = n === 0 ? 0 : Math.max(2, Math.round((n / most) * barArea));
    return `<g class="bar" data-part="${part}" data-count="${n}"><text x="0" y="${y + 17}" font-size="14">${escapeHtml(partName(voice, part))}</text><rect x="150" y="${y}" width="${w}" height="${rowHeight - 8}" fill="${COLOURS[part]}"></rect><text class="count" x="${156 + w}" y="${y + 17}" font-size="14">${n}</text></g>`;
  });
  return `<svg id="ledger-chart" xmlns="http://www.w3.org/2000/svg" role="img" width="${width}" height="${CHART_PARTS.length * rowHeight + 8}" data-inputs="${ledger.inputs}">${bars.join('')}</svg>`;
}

/** The HTML report: self-contained (inline style and SVG), nothing fetched. */
export function htmlReport(voice: Voice, view: RunView, usualMs: number): string {
  const title = escapeHtml(say(voice, 'runs.reportTitle', { id: view.run.id }));
  const [inputsLine, acceptedLine] = ledgerLines(voice, view.ledger);
  const groups = needsRows(voice, view, usualMs);
  const tables = groups.length === 0
    ? `<p>${escapeHtml(say(voice, 'runs.reportNothing'))}</p>`
    : groups
        .map(
          ({ heading, rows }) =>
            `<h3>${escapeHtml(heading)}</h3><table><thead><tr>${columns(voice).map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr></thead><tbody>${rows
              .map((row) => `<tr>${row.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`)
              .join('')}</tbody></table>`,
        )
        .join('');
  return `<!doctype html>
<html lang="${voice.lang}"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"><title>${title}</title>
<style>body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin-bottom:1em}th,td{border:1px solid #ccc;padding:4px 8px;text-align:left}th{background:#f3f3f3}.muted{color:#666}</style></head>
<body><h1>${title}</h1>
<p class="muted">${escapeHtml(formatLocalTime(view.run.startedAt))} · ${escapeHtml(view.run.profile)} · ${escapeHtml(view.run.baseUrl)}</p>
<p>${escapeHtml(inputsLine)}<br>${escapeHtml(acceptedLine)}</p>
<h2>${escapeHtml(say(voice, 'runs.reportLedger'))}</h2>
${chartSvg(voice, view.ledger)}
<h2>${escapeHtml(say(voice, 'runs.reportNeeds'))}</h2>
${tables}
</body></html>
`;
}

/** The xlsx report: the summary sheet first (the ledger's parts), then every input. Every cell written as text or a number: nothing runs as a formula. */
async function xlsxReport(voice: Voice, view: RunView): Promise<Uint8Array> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  const summary = workbook.addWorksheet(say(voice, 'runs.reportSummarySheet'));
  summary.addRow([say(voice, 'runs.reportTitle', { id: view.run.id })]).font = { bold: true };
  summary.addRow([say(voice, 'runs.col_part'), say(voice, 'runs.col_count')]).font = { bold: true };
  for (const part of ALL_PARTS) summary.addRow([partName(voice, part), view.ledger[part]]);
  summary.columns = [{ width: 24 }, { width: 12 }];
  const inputs = workbook.addWorksheet(say(voice, 'runs.reportInputsSheet'));
  const head = ['runs.col_file', 'runs.col_row', 'runs.col_proposal', 'runs.col_outcome', 'runs.col_contract', 'runs.col_reason'] as const;
  inputs.addRow(head.map((key) => say(voice, key))).font = { bold: true };
  for (const input of view.inputs) {
    const outcome = input.result?.outcome ?? input.effective;
    inputs.addRow([input.file, input.row ?? '', input.idProposta ?? '', outcome, input.idContrato ?? '', reasonOf(voice, input) ?? '']);
  }
  inputs.views = [{ state: 'frozen', ySplit: 1 }];
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

/** `runs show --report <file>`: the format by the extension; a path that cannot be written is exit 74. */
export async function writeRunReport(io: Io, path: string, view: RunView, usualMs: number): Promise<void> {
  const voice = voiceOf(io, view);
  const format = formatOf(path);
  const data = format === 'xlsx' ? await xlsxReport(voice, view) : format === 'md' ? markdownReport(voice, view, usualMs) : htmlReport(voice, view, usualMs);
  try {
    writeFileSafely(path, data);
  } catch (error) {
    if (error instanceof EconsigError) throw error;
    throw new EconsigError(msg('submit.reportUnwritable', { path }), { exitCode: ExitCode.storage, hint: msg('submit.reportUnwritableHint'), cause: error });
  }
  if (!io.json) io.stderr.write(`${createTheme(io).muted(say(io, 'runs.reportWritten', { path }))}\n`);
}

/**
 * With GITHUB_STEP_SUMMARY set (GitHub Actions), the Markdown ledger appended to that file:
 * the job's page shows it; what earlier steps wrote stays. A file that cannot be written is
 * said as a warning: the run's own outcome stands.
 */
export function appendStepSummary(io: Io, env: Record<string, string | undefined>, view: RunView, usualMs: number): void {
  const path = env.GITHUB_STEP_SUMMARY;
  if (!path) return;
  try {
    appendToFile(path, markdownReport(voiceOf(io, view), view, usualMs));
  } catch (error) {
    const cause = error instanceof Error ? error.message : String(error);
    io.stderr.write(`${createTheme(io).warning(say(io, 'run.warningLabel'))} ${say(io, 'runs.summaryUnwritable', { path, cause })}\n`);
  }
}
