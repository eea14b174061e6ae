// The back office, second pass (issue 24), one run each:
// - validate of a 5,000-row template-filled sheet (CSV in Windows-1252, and the xlsx with the
//   agência as a number cell): people's text on stderr (goal: at most 40 lines, every error
//   row named) and rows/s beside the reading floor of bench/sheets.mjs (goal: no lower than
//   issue 17's ratios, CSV 0.08x and xlsx 0.6x of the floor);
// - submit of the 5,000-row xlsx to the sandbox (another process): peak RSS (goal: under
//   200 MiB). Every proposal is unknown to the sandbox (answered 404), as in bench/inputs.mjs.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, root, runNode, startSandboxProcess, table } from './lib.mjs';
// The reading floors of issue 17's bench: the same measure, so the ratios compare.
import { FLOOR_CSV, FLOOR_XLSX } from './sheets.mjs';

const ROWS = 5_000;
const HEADERS = ['Id da proposta', 'Naturalidade', 'Estado civil', 'E-mail', 'Telefone', 'Tipo de documento', 'Número do documento', 'Órgão expedidor',
  'UF do documento', 'Data de emissão', 'Logradouro', 'Número', 'Complemento', 'Bairro', 'Cidade', 'UF', 'CEP', 'Código do banco', 'Agência',
  'Conta', 'Tipo de conta', 'Observações'];
/** Rows with one real error (an e-mail without its domain): what the clerk must find. */
const ERROR_ROWS = new Set([137, 1_999, 4_321]);

/** A row as the template is filled by hand: CEP and phone punctuated, DD/MM/YYYY, a short agência, labels from the lists. */
function rowOf(i) {
  return [`PROP-${900000 + i}`, 'São Paulo', 'Casado(a)', ERROR_ROWS.has(i) ? `pessoa${i}@` : `pessoa${i}@example.com`, '(11) 98765-4321', 'RG (carteira de identidade)',
    String(100000000 + i), 'SSP', 'SP', '21/03/2015', 'Avenida Paulista', String(1 + (i % 3000)), '', 'Bela Vista', 'São Paulo', 'SP', '01310-100',
    '341', '12', '12345-6', 'Conta corrente', i % 7 === 0 ? 'cliente pediu urgência' : ''];
}

async function writeSheets(dir) {
  const csv = join(dir, 'modelo-preenchido.csv');
  writeFileSync(csv, Buffer.from(`${[HEADERS, ...Array.from({ length: ROWS }, (_, i) => rowOf(i))].map((r) => r.join(';')).join('\r\n')}\r\n`, 'latin1'));
  const xlsx = join(dir, 'modelo-preenchido.xlsx');
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: xlsx, useStyles: true, useSharedStrings: true });
  const sheet = workbook.addWorksheet('Propostas');
  sheet.addRow(HEADERS).commit();
  for (let i = 0; i < ROWS; i++) sheet.addRow(rowOf(i).map((v, c) => (HEADERS[c] === 'Agência' ? Number(v) : v))).commit();
  sheet.commit();
  await workbook.commit();
  return { csv, xlsx };
}

function validateOf(label, file, floor) {
  const f = runNode(['-e', floor, file], { env: { NODE_PATH: join(root, 'node_modules') } });
  const o = runNode([bin, 'validate', file], { env: { LANG: 'pt_BR.UTF-8' } });
  if (o.status !== 1) throw new Error(`validate ${label}: exit ${o.status}\n${o.stderr}`);
  // GNU time's figure is the last line of stderr: not econsig's.
  const lines = o.stderr.trimEnd().split('\n').slice(0, Number.isNaN(o.rssMiB) ? undefined : -1);
  const named = [...ERROR_ROWS].every((i) => lines.some((line) => line.includes(`, linha ${i + 2}`)));
  return { label, ms: o.ms, floorMs: f.ms, rowsPerSecond: Math.round((ROWS / o.ms) * 1000), ratio: f.ms / o.ms, lines: lines.length, named, rssMiB: o.rssMiB, text: lines };
}

export async function benchBackOffice() {
  const dir = join(tmpdir(), 'econsig-bench-back-office');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    const { csv, xlsx } = await writeSheets(dir);
    const validate = [validateOf('CSV 5,000 rows', csv, FLOOR_CSV), validateOf('xlsx 5,000 rows', xlsx, FLOOR_XLSX)];
    const sandbox = await startSandboxProcess(['--webhook-url', 'http://127.0.0.1:9/none']);
    let submit;
    try {
      const home = join(dir, 'home');
      const env = { ECONSIG_HOME: home, ECONSIG_TOKEN: sandbox.token, ECONSIG_BASE_URL: sandbox.baseUrl };
      submit = runNode([bin, 'submit', xlsx, '--concurrency', '8'], { env, stderr: 'ignore' });
      if (submit.status !== 4) throw new Error(`submit exited ${submit.status} (expected 4: the first row is not found)`);
    } finally {
      await sandbox.stop();
    }
    return { validate, submit };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const mib = (value) => (Number.isNaN(value) ? 'n/a' : value.toFixed(0));

export function printBackOffice({ validate, submit }) {
  console.log(`\n## validate of a ${ROWS.toLocaleString('en')}-row template-filled sheet (pt-BR, people's text), beside the reading floor`);
  console.log(
    table([
      ['sheet', 'econsig ms', 'rows/s', 'floor ms', 'ratio to floor', 'stderr lines', 'error rows named', 'peak RSS MiB'],
      ...validate.map((r) => [r.label, r.ms.toFixed(0), r.rowsPerSecond, r.floorMs.toFixed(0), `${r.ratio.toFixed(2)}x`, r.lines, r.named ? 'all' : 'NOT all', mib(r.rssMiB)]),
    ]),
  );
  console.log(`goals: at most 40 lines (${validate.every((r) => r.lines <= 40 && r.named) ? 'met' : 'NOT met'}); CSV >= 0.08x, xlsx >= 0.6x of the floor`);
  console.log(`\n## submit of the ${ROWS.toLocaleString('en')}-row xlsx to the sandbox (concurrency 8): ${(submit.ms / 1000).toFixed(1)} s, peak RSS ${mib(submit.rssMiB)} MiB (goal < 200 MiB: ${submit.rssMiB < 200 ? 'met' : 'NOT met'})`);
  console.log(`\nwhat the clerk reads (CSV):\n${validate[0].text.join('\n')}`);
}

if (import.meta.url === `file://${process.argv[1]}`) printBackOffice(await benchBackOffice());
