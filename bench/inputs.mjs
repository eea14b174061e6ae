// Bounded inputs (issue 22), each beside its reference in the same run:
// - `submit` of a 1,000,000-row CSV to the sandbox (another process), its peak RSS beside
//   `validate` of the same file. Goal: under 250 MiB. Every row is a proposal the sandbox does
//   not know: each is claimed, sent and answered 404, which does not stop the batch (a sandbox
//   accepting a million contracts keeps them all, and ran out of its 4 GB heap at 870,000).
//   BENCH_SHEET_ROWS=100000 for a shorter run.
// - `validate` of an xlsx with one cell of 5, 10 and 20 MB, beside `validate` of a small sound
//   xlsx. Goal: refused (or read) in under 1 s, in time that does not grow with the cell.
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, median, root, runNode, startSandboxProcess, table } from './lib.mjs';

const ROWS = Number(process.env.BENCH_SHEET_ROWS ?? 1_000_000);
const HEADER = 'Id da proposta;Naturalidade;Estado civil;E-mail;Telefone;Tipo de documento;Número do documento;Órgão expedidor;UF do documento;Data de emissão;Logradouro;Número;Bairro;Cidade;UF;CEP;Código do banco;Agência;Conta;Tipo de conta';

/** Lines written in pieces of about 1 MiB: the file is larger than what the bench should hold. */
function writeLines(path, count, lineOf) {
  const fd = openSync(path, 'w');
  try {
    let piece = '';
    for (let i = 0; i < count; i++) {
      piece += lineOf(i);
      if (piece.length > 1 << 20) {
        writeSync(fd, piece);
        piece = '';
      }
    }
    writeSync(fd, piece);
  } finally {
    closeSync(fd);
  }
}

/** The CSV: UTF-8, `;`, bank data, every row valid, every proposal unknown to the sandbox's catalogue. */
function prepare(dir) {
  const csv = join(dir, 'lote.csv');
  writeLines(csv, ROWS + 1, (i) =>
    i === 0 ? `${HEADER}\r\n` : `BENCH-${i};Recife;CASADO;w${i}@example.com;+5581987654321;RG;${1000000 + i};SSP;PE;2015-03-21;Rua da Aurora;${i};Boa Vista;Recife;PE;50050000;341;0123;12345-6;CORRENTE\r\n`,
  );
  return csv;
}

async function submitBeside(dir) {
  const csv = prepare(dir);
  const validate = runNode([bin, 'validate', csv], { stderr: 'ignore' });
  if (validate.status !== 0) throw new Error(`validate exited ${validate.status}`);
  const sandbox = await startSandboxProcess(['--webhook-url', 'http://127.0.0.1:9/none']);
  const home = mkdtempSync(join(tmpdir(), 'econsig-bench-inputs-'));
  try {
    const env = { ECONSIG_HOME: home, ECONSIG_TOKEN: sandbox.token, ECONSIG_BASE_URL: sandbox.baseUrl };
    const submit = runNode([bin, 'submit', csv, '--concurrency', '8'], { env, stderr: 'ignore' });
    if (submit.status !== 4) throw new Error(`submit exited ${submit.status} (expected 4: every row not found)`);
    return { rows: ROWS, validate, submit };
  } finally {
    await sandbox.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

/** Text deflate cannot shrink much (random bytes as base64): the cell's own limit is what is met, not the bomb's. */
const noise = (bytes) => randomBytes(Math.ceil((bytes * 3) / 4)).toString('base64').slice(0, bytes);

async function writeCellXlsx(path, megabytes) {
  const { default: ExcelJS } = await import('exceljs');
  // Inline strings: the cell's text is in the sheet's own part, as the reported file had it.
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Propostas');
  sheet.addRow(HEADER.split(';')).commit();
  sheet.addRow(['PROP-1', noise(megabytes * 1_000_000)]).commit();
  sheet.commit();
  await workbook.commit();
}

async function hugeCells(dir, rounds = 3) {
  const reference = join(root, 'fixtures', 'sheets', 'numeric-cells.xlsx');
  const rows = [];
  for (const megabytes of [5, 10, 20]) {
    const file = join(dir, `cell-${megabytes}mb.xlsx`);
    await writeCellXlsx(file, megabytes);
    const ours = [];
    const refs = [];
    let rss = 0;
    let message = '';
    for (let i = 0; i < rounds; i++) {
      refs.push(runNode([bin, 'validate', reference]).ms);
      const r = runNode([bin, 'validate', file]);
      if (r.status !== 2) throw new Error(`validate of a ${megabytes} MB cell exited ${r.status} (expected 2: refused)`);
      ours.push(r.ms);
      rss = Math.max(rss, r.rssMiB);
      message = /error\s+\(file\): (.*)/.exec(r.stderr)?.[1] ?? '';
    }
    rows.push({ megabytes, ms: median(ours), referenceMs: median(refs), rssMiB: rss, message });
  }
  return rows;
}

export async function benchInputs() {
  const dir = join(root, 'bench/.data/inputs');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    return { cells: await hugeCells(dir), sheet: await submitBeside(dir) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const mib = (value) => (Number.isNaN(value) ? 'n/a' : value.toFixed(0));

export function printInputs({ cells, sheet }) {
  console.log('\n## bounded inputs: an xlsx with one huge cell (validate, median of 3), beside validate of a small sound xlsx');
  console.log(
    table([
      ['cell', 'econsig ms', 'reference ms', 'peak RSS MiB', 'said'],
      ...cells.map((r) => [`${r.megabytes} MB`, r.ms.toFixed(0), r.referenceMs.toFixed(0), mib(r.rssMiB), r.message]),
    ]),
  );
  const slowest = Math.max(...cells.map((r) => r.ms));
  console.log(`goal: refused in under 1 s whatever the cell's size: slowest ${slowest.toFixed(0)} ms ${slowest < 1000 ? 'met' : 'NOT met'}`);
  console.log(`\n## submit of a ${sheet.rows.toLocaleString('en')}-row CSV to the sandbox (concurrency 8, every row sent and answered 404), beside validate of the same file`);
  console.log(
    table([
      ['command', 'seconds', 'rows/s', 'peak RSS MiB'],
      ['validate', (sheet.validate.ms / 1000).toFixed(1), Math.round(sheet.rows / (sheet.validate.ms / 1000)), mib(sheet.validate.rssMiB)],
      ['submit', (sheet.submit.ms / 1000).toFixed(1), Math.round(sheet.rows / (sheet.submit.ms / 1000)), mib(sheet.submit.rssMiB)],
    ]),
  );
  console.log(`goal: submit under 250 MiB: ${mib(sheet.submit.rssMiB)} MiB ${sheet.submit.rssMiB < 250 ? 'met' : 'NOT met'}`);
}

if (import.meta.url === `file://${process.argv[1]}`) printInputs(await benchInputs());
