// validate of spreadsheets (issue 17), whole process, against a floor script that only
// reads the same file (CSV: read, decode, split lines; xlsx: exceljs's streaming reader).
// Goals (one run): a 10,000-row xlsx at >= 5,000 rows/s and < 200 MiB; a 10,000-row CSV at
// >= 15,000 rows/s. A 100,000-row CSV shows that memory does not grow with the rows.
// The sheets are generated here: pt-BR headers, 10% of rows with one realistic fault, the
// xlsx with CEP and agência as number cells and the issue date as a date cell.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, median, root, runNode, table } from './lib.mjs';

const HEADERS = ['Id da proposta', 'Naturalidade', 'Estado civil', 'E-mail', 'Telefone', 'Tipo de documento', 'Número do documento', 'Órgão expedidor',
  'UF do documento', 'Data de emissão', 'Logradouro', 'Número', 'Complemento', 'Bairro', 'Cidade', 'UF', 'CEP', 'Código do banco', 'Agência',
  'Conta', 'Tipo de conta', 'Chave Pix'];

function rowOf(i) {
  const row = [`PROP-${100000 + i}`, 'São Paulo', 'CASADO', `pessoa${i}@example.com`, '+5511912345678', 'RG', String(100000000 + i), 'SSP', 'SP',
    '2015-03-21', 'Avenida Paulista', String(1 + (i % 3000)), i % 4 === 0 ? 'Apto 12; bloco B' : '', 'Bela Vista', 'São Paulo', 'SP', '01310100',
    '260', '0001', '1234567-8', 'CORRENTE', '52998224725'];
  if (i % 10 === 9) {
    const fault = Math.floor(i / 10) % 5;
    if (fault === 0) row[16] = '0131010';
    if (fault === 1) row[15] = 'XX';
    if (fault === 2) row[3] = 'pessoa@';
    if (fault === 3) row[9] = '2024-02-30';
    if (fault === 4) row[2] = 'NOIVO';
  }
  return row;
}

const field = (text) => (/[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

export function writeCsv(path, rows) {
  const lines = [HEADERS.map(field).join(';')];
  for (let i = 0; i < rows; i++) lines.push(rowOf(i).map(field).join(';'));
  // Windows-1252, as a Brazilian Excel saves "CSV (separado por vírgulas)".
  writeFileSync(path, Buffer.from(`${lines.join('\r\n')}\r\n`, 'latin1'));
}

export async function writeXlsx(path, rows) {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useStyles: true, useSharedStrings: true });
  const sheet = workbook.addWorksheet('Propostas');
  sheet.addRow(HEADERS).commit();
  for (let i = 0; i < rows; i++) {
    const values = rowOf(i).map((value, c) => {
      if (HEADERS[c] === 'CEP' || HEADERS[c] === 'Agência') return /^\d+$/.test(value) ? Number(value) : value;
      if (HEADERS[c] === 'Data de emissão' && value === '2015-03-21') return new Date(Date.UTC(2015, 2, 21));
      return value;
    });
    const row = sheet.addRow(values);
    row.getCell(10).numFmt = 'yyyy-mm-dd';
    row.commit();
  }
  sheet.commit();
  await workbook.commit();
}

// Read the file, decode it, split its lines: what any CSV reader must do at least.
export const FLOOR_CSV = `
const { readFileSync } = require('node:fs');
const text = new TextDecoder('windows-1252').decode(readFileSync(process.argv[1]));
let n = 0;
for (const line of text.split('\\r\\n')) if (line.split(';').length > 1) n++;
if (n === 0) process.exit(1);
`;

export const FLOOR_XLSX = `
const ExcelJS = require('exceljs');
(async () => {
  let n = 0;
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(process.argv[1], { sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', worksheets: 'emit', entries: 'ignore' });
  // To the end: exceljs removes its temporary copy of a worksheet only then.
  for await (const ws of reader) if (n === 0) for await (const row of ws) n++;
  if (n === 0) process.exit(1);
})();
`;

function measure(label, file, rows, floor, rounds, json = true, env = {}) {
  const ours = [];
  const floors = [];
  let rss = 0;
  let floorRss = 0;
  for (let i = 0; i < rounds; i++) {
    const f = runNode(['-e', floor, file], { env: { NODE_PATH: join(root, 'node_modules') } });
    if (f.status !== 0) throw new Error(`floor failed: ${f.stderr}`);
    floors.push(f.ms);
    floorRss = Math.max(floorRss, f.rssMiB);
    const o = runNode([bin, 'validate', file, ...(json ? ['--json'] : [])], { stdout: 'pipe', env });
    if (o.status !== 1) throw new Error(`validate ${label}: exit ${o.status} (expected 1: 10% invalid rows)\n${o.stderr}`);
    // --json: every row is an entry; text: the summary line counts them (people's text on stderr).
    const entries = json ? JSON.parse(o.stdout).files.filter((e) => !e.header).length : Number(/(\d+) rows:/.exec(o.stderr)?.[1]);
    if (entries !== rows) throw new Error(`validate ${label}: ${entries} rows reported, expected ${rows}`);
    ours.push(o.ms);
    rss = Math.max(rss, o.rssMiB);
  }
  const ms = median(ours);
  return { label, rows, ms, rowsPerSecond: Math.round((rows / ms) * 1000), floorMs: median(floors), rssMiB: rss, floorRssMiB: floorRss };
}

export async function benchSheets() {
  const dir = join(tmpdir(), 'econsig-bench-sheets');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const csv10k = join(dir, 'propostas-10k.csv');
  const csv100k = join(dir, 'propostas-100k.csv');
  const xlsx10k = join(dir, 'propostas-10k.xlsx');
  writeCsv(csv10k, 10_000);
  writeCsv(csv100k, 100_000);
  await writeXlsx(xlsx10k, 10_000);
  try {
    return [
      { ...measure('CSV 10,000 rows', csv10k, 10_000, FLOOR_CSV, 3), goal: '>= 15,000 rows/s' },
      { ...measure('xlsx 10,000 rows', xlsx10k, 10_000, FLOOR_XLSX, 3), goal: '>= 5,000 rows/s, < 200 MiB' },
      // Without --json: the --json document is written once every row is known (its `ok` comes
      // first), so it is held; people's text streams, and so does the reading.
      // RSS follows V8's lazy collection; the proof of bounded memory is a run of 100,000 rows
      // whose JavaScript heap is capped at 48 MiB: it would die if the rows were kept.
      { ...measure('CSV 100,000 rows, text, heap capped', csv100k, 100_000, FLOOR_CSV, 1, false, { NODE_OPTIONS: '--max-old-space-size=48' }), goal: 'completes with a 48 MiB heap' },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const mib = (value) => (Number.isNaN(value) ? 'n/a' : value.toFixed(0));

export function printSheets(results) {
  console.log('\n## validate of spreadsheets (whole process, --json; floor = reading the file and nothing else: CSV decode + split lines, xlsx exceljs streaming reader)');
  console.log(
    table([
      ['sheet', 'econsig ms', 'rows/s', 'floor ms', 'peak RSS MiB', 'floor RSS MiB', 'goal'],
      ...results.map((r) => [r.label, r.ms.toFixed(0), r.rowsPerSecond, r.floorMs.toFixed(0), mib(r.rssMiB), mib(r.floorRssMiB), r.goal]),
    ]),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) printSheets(await benchSheets());
