/**
 * Spreadsheets through the built binary (docs/cli-contract.md, "Spreadsheets"): the fixtures in
 * fixtures/sheets/ as Excel writes them, validate and submit against the sandbox, results
 * sheets read back with exceljs, and the template round trip.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { binPath, repoRoot, runCli } from './run-cli.js';
import { bankOnly, cliEnv, freePort, parseSubmitJson, startCountedSandbox, useScratch } from './submit-harness.js';

const scratch = useScratch();
const sheets = join(repoRoot, 'fixtures', 'sheets');

/** A fixture copied into the test's folder (results files are written beside it). */
function copy(name: string): string {
  const path = join(scratch.dir, name);
  copyFileSync(join(sheets, name), path);
  return path;
}

interface RowEntry {
  file: string;
  row: number;
  header?: boolean;
  ok: boolean;
  errors: Array<{ path: string; column: string | null; message: string }>;
  warnings: Array<{ path: string; column: string | null; message: string }>;
  notes?: string[];
}

function validateJson(stdout: string): { ok: boolean; files: RowEntry[] } {
  return JSON.parse(stdout) as { ok: boolean; files: RowEntry[] };
}

async function readXlsx(path: string): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path);
  return workbook;
}

describe('validate a sheet', () => {
  it('Windows-1252 `;` CSV from a Brazilian Excel: accents read, row and column in every problem, empty row noted', async () => {
    const run = await runCli(['validate', join(sheets, 'excel-ptbr-cp1252.csv'), '--json']);
    expect(run.code, run.stderr).toBe(1);
    const doc = validateJson(run.stdout);
    expect(doc.ok).toBe(false);
    expect(doc.files.map((f) => [f.row, f.ok])).toEqual([[2, true], [3, false], [5, true]]);
    const bad = doc.files[1]!;
    expect(bad.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'pessoa.endereco.cep', column: 'CEP', message: expect.stringContaining('"01310100"') }),
        expect.objectContaining({ path: 'pessoa.email', column: 'E-mail' }),
        expect.objectContaining({ path: 'pessoa.documento.uf', column: 'UF do documento' }),
      ]),
    );
    for (const entry of doc.files) {
      expect(entry.file).toBe(join(sheets, 'excel-ptbr-cp1252.csv'));
      for (const issue of [...entry.errors, ...entry.warnings]) expect(issue.column, issue.message).toBeTruthy();
    }
    // "união estável" came through Windows-1252 intact: read as the label of UNIAO_ESTAVEL,
    // silently (row 2 passed; a mangled "uniÃ£o" would be refused, naming the allowed values).
    expect([...doc.files[0]!.errors, ...doc.files[0]!.warnings].filter((i) => i.column === 'Estado civil')).toEqual([]);
    expect(doc.files[2]!.notes).toEqual(['empty rows skipped: 4']);
  });

  it('people read the row and the column, in Portuguese with LANG=pt_BR', async () => {
    const run = await runCli(['validate', join(sheets, 'excel-ptbr-cp1252.csv')], { env: { LANG: 'pt_BR.UTF-8' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('excel-ptbr-cp1252.csv, linha 3');
    expect(run.stderr).toMatch(/ +CEP \(pessoa\.endereco\.cep\): deve ter 8 dígitos.*se o Excel apagou zeros à esquerda, o valor seria "01310100"/);
    expect(run.stderr).toContain('linhas vazias ignoradas: 4');
  });

  it('pt-BR: the field rules speak Portuguese too, each message with its row and column (--json --lang pt-BR)', async () => {
    const run = await runCli(['validate', join(sheets, 'excel-ptbr-cp1252.csv'), '--json', '--lang', 'pt-BR']);
    expect(run.code).toBe(1);
    const files = validateJson(run.stdout).files;
    expect(files.find((f) => f.row === 3)!.errors).toEqual([
      { path: 'pessoa.documento.uf', column: 'UF do documento', message: expect.stringMatching(/^deve ser um de AC, .*\(recebido "SX"\); você quis dizer SC\?$/) },
      { path: 'pessoa.endereco.cep', column: 'CEP', message: expect.stringMatching(/^deve ter 8 dígitos, ex\.: "01310100" \(se o Excel apagou zeros à esquerda/) },
      { path: 'pessoa.email', column: 'E-mail', message: expect.stringMatching(/^não é um e-mail válido/) },
    ]);
    expect(files.find((f) => f.row === 2)!.warnings).toContainEqual({ path: 'pessoa.documento.dataDeEmissao', column: 'Data de emissão', message: expect.stringMatching(/^DD\/MM\/AAAA reescrita como AAAA-MM-DD/) });
    const messages = files.flatMap((f) => [...f.errors, ...f.warnings].map((i) => i.message));
    expect(messages.length).toBeGreaterThan(5);
    for (const message of messages) expect(message).not.toMatch(/\b(must|is required|rewritten|stripped|added|removed|did you mean|e\.g\.)\b/);
  });

  it('UTF-8 CSV with BOM and `,`: quoted commas and quotes kept; English labels, paths and an unknown column', async () => {
    const run = await runCli(['submit', join(sheets, 'excel-utf8-bom.csv'), '--dry-run', '--json'], { env: { ECONSIG_BASE_URL: 'http://127.0.0.1:9' } });
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout) as { requests: Array<{ row: number; body: any }>; files: Array<{ row: number }> };
    expect(doc.requests.map((r) => r.row)).toEqual([2, 3]);
    expect(doc.requests[0]!.body.pessoa.endereco.complemento).toBe('Apto 12, bloco "B"');
    expect(doc.requests[0]!.body.pessoa.naturalidade).toBe('São Paulo');

    const validate = await runCli(['validate', join(sheets, 'excel-utf8-bom.csv'), '--json']);
    expect(validate.code).toBe(0);
    const header = validateJson(validate.stdout).files[0]!;
    expect(header).toMatchObject({ row: 1, header: true, ok: true });
    expect(header.warnings).toEqual([{ path: '(header)', column: 'Notes', message: 'unknown column "Notes": ignored' }]);
  });

  it('xlsx: number cells back to text with their zeros, date cell as YYYY-MM-DD, formula value, merged title skipped', async () => {
    const run = await runCli(['submit', join(sheets, 'numeric-cells.xlsx'), '--dry-run', '--json'], { env: { ECONSIG_BASE_URL: 'http://127.0.0.1:9' } });
    expect(run.code, run.stderr).toBe(1);
    const doc = JSON.parse(run.stdout) as { requests: Array<{ row: number; body: any }>; files: Array<{ row: number; ok: boolean; warnings: any[] }> };
    expect(doc.requests.map((r) => r.row)).toEqual([3, 5]);
    const maria = doc.requests[0]!.body;
    expect(maria.pessoa.endereco.cep).toBe('01310100');
    expect(maria.contaBancaria).toMatchObject({ agencia: '0001', compe: '260' });
    expect(maria.pessoa.documento.dataDeEmissao).toBe('2015-03-21');
    expect(doc.requests[1]!.body.pessoa.endereco.cidade).toBe('Curitiba');
    expect(doc.files.find((f) => f.row === 3)!.warnings).toContainEqual(
      expect.objectContaining({ path: 'pessoa.endereco.cep', column: 'CEP', message: expect.stringContaining('number 1310100; read as the text "01310100"') }),
    );
    expect(doc.files.find((f) => f.row === 6)!.ok).toBe(false);

    const validate = await runCli(['validate', join(sheets, 'numeric-cells.xlsx'), '--json']);
    const entries = validateJson(validate.stdout).files;
    expect(entries[0]).toMatchObject({ row: 2, header: true, notes: ['rows above the header (a title?) skipped: 1; header on row 2'] });
  });

  it('rows Excel did not store are empty rows: one note names the whole gap, however long', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Propostas');
    const header = readFileSync(join(sheets, 'excel-utf8-bom.csv'), 'utf8').replace(/^\ufeff/, '').split('\r\n')[0]!.split(',');
    sheet.getRow(1).values = header;
    const row = ['PROP-1003', 'Curitiba', 'SOLTEIRO', 'ana.lima@example.com', '+5541998765432', 'RG', '987654321', 'SSP', 'PR', '2018-07-02',
      'Rua XV de Novembro', '10', '', 'Centro', 'Curitiba', 'PR', '80020310', '', '', '', '', 'ana.lima@example.com', ''];
    sheet.getRow(2).values = row;
    sheet.getRow(400_000).values = row;
    const path = join(scratch.dir, 'gap.xlsx');
    await workbook.xlsx.writeFile(path);
    const run = await runCli(['validate', path, '--json']);
    expect(run.code, run.stdout).toBe(0);
    expect(validateJson(run.stdout).files.filter((f) => !f.header).map((f) => [f.row, f.notes])).toEqual([[2, undefined], [400_000, ['empty rows skipped: 3-399999']]]);
  });

  it.each(['merged-rows.xlsx', 'libreoffice-merged-rows.xlsx'])('%s: title rows merged across the columns inside the data are skipped with a note naming them; a data row with two cells merged is still a row', async (name) => {
    const run = await runCli(['validate', join(sheets, name), '--json']);
    expect(run.code).toBe(1);
    const files = validateJson(run.stdout).files;
    expect(files.map((f) => [f.row, f.ok, f.notes ?? []])).toEqual([
      [2, true, []],
      [4, true, ['merged rows (a title?) skipped: 3']],
      [7, true, ['empty rows skipped: 5', 'merged rows (a title?) skipped: 6']],
      [8, false, []],
    ]);
    // Row 8's Logradouro is merged over its Número: the number is missing, and said so.
    expect(files.at(-1)!.errors).toEqual([expect.objectContaining({ path: 'pessoa.endereco.numero', column: 'Número' })]);
    const pt = await runCli(['validate', join(sheets, name)], { env: { LANG: 'pt_BR.UTF-8' } });
    expect(pt.stderr).toContain('linhas mescladas (um título?) ignoradas: 6');
    const sent = await runCli(['submit', join(sheets, name), '--dry-run', '--json'], { env: { ECONSIG_BASE_URL: 'http://127.0.0.1:9' } });
    expect((JSON.parse(sent.stdout) as { requests: Array<{ row: number }> }).requests.map((r) => r.row)).toEqual([2, 4, 7]);
  });

  it('a quote never closed: the rows before it are checked, then an error naming the line its record starts on (people\'s language)', async () => {
    const path = join(scratch.dir, 'aspas.csv');
    const [header, good] = batchCsvLines(1);
    writeFileSync(path, `${header}\r\n${good}\r\n"PROP-2002;Recife\r\nsegue\r\n`);
    const run = await runCli(['validate', path, '--json']);
    expect(run.code).toBe(1);
    expect(validateJson(run.stdout).files.map((f) => [f.row, f.ok, f.errors.map((e) => e.message)])).toEqual([
      [2, true, []],
      [3, false, ['the CSV cannot be read at line 3 of the file: a quoted field that starts on line 3 is never closed']],
    ]);
    const pt = await runCli(['validate', path], { env: { LANG: 'pt_BR.UTF-8' } });
    expect(pt.stderr).toContain('linha 3\n    erro    (arquivo): o CSV não pode ser lido na linha 3 do arquivo: um campo entre aspas que começa na linha 3 nunca é fechado');
  });

  it('--sheet picks a worksheet by name; an unknown name exits 2 and lists the sheets', async () => {
    const first = await runCli(['validate', join(sheets, 'two-sheets.xlsx')]);
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('no known column in the header');
    const named = await runCli(['validate', join(sheets, 'two-sheets.xlsx'), '--sheet', 'propostas', '--json']);
    expect(named.code, named.stdout + named.stderr).toBe(0);
    expect(validateJson(named.stdout).files.map((f) => f.row)).toEqual([2]);
    const missing = await runCli(['validate', join(sheets, 'two-sheets.xlsx'), '--sheet', 'Nope']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('there is no sheet "Nope"; sheets: "Leia-me", "Propostas"');
  });

  it('leaves no temporary file behind (exceljs keeps one per worksheet read), whether the sheet is read to its end or not', async () => {
    const tmp = join(scratch.dir, 'tmp');
    mkdirSync(tmp);
    const env = { TMPDIR: tmp };
    expect((await runCli(['validate', join(sheets, 'numeric-cells.xlsx')], { env })).code).toBe(1);
    expect((await runCli(['validate', join(sheets, 'two-sheets.xlsx')], { env })).code).toBe(1);
    const named = await runCli(['validate', join(sheets, 'two-sheets.xlsx'), '--sheet', 'Propostas'], { env });
    expect(named.code, named.stdout + named.stderr).toBe(0);
    expect((await runCli(['validate', join(sheets, 'libreoffice-from-csv.xlsx')], { env })).code).toBe(1);
    // Node's compile cache (bin/econsig.js turns it on) lives in the temporary folder too.
    expect(readdirSync(tmp).filter((name) => name !== 'node-compile-cache')).toEqual([]);
  });

  it('stdin with --format csv; an .xls is refused with what to do', async () => {
    const piped = await runCli(['validate', '-', '--format', 'csv', '--json'], { input: readFileSync(join(sheets, 'excel-utf8-bom.csv'), 'utf8') });
    expect(piped.code, piped.stderr).toBe(0);
    expect(validateJson(piped.stdout).files.map((f) => [f.file, f.row])).toEqual([['-', 1], ['-', 2], ['-', 3]]);
    const old = await runCli(['validate', 'planilha.xls']);
    expect(old.code).toBe(2);
  });
});

describe('submit a sheet', () => {
  it('xlsx with --wait against the sandbox: one result per row, results xlsx beside it (bold frozen header, coloured outcomes)', async () => {
    const port = await freePort();
    const sbx = await startCountedSandbox({ delayMs: 200, webhookUrl: `http://127.0.0.1:${port}/webhook` });
    const input = copy('numeric-cells.xlsx');
    const run = await runCli(['submit', input, '--wait', '--listen', `127.0.0.1:${port}`, '--timeout', '10', '--json'], {
      env: cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token),
    });
    // Row 6 is invalid (exit 1 is the first failure in input order).
    expect(run.code, run.stderr).toBe(1);
    const results = parseSubmitJson(run.stdout).results as unknown as Array<{ row: number; outcome: string; idContrato: string | null }>;
    expect(results.map((r) => [r.row, r.outcome])).toEqual([[3, 'approved'], [5, 'approved'], [6, 'invalid']]);
    expect(sbx.requests()).toBe(2);

    const out = join(scratch.dir, 'numeric-cells.resultados.xlsx');
    expect(run.stderr).toContain(`results written to ${out}`);
    // exceljs's zip writer (archiver-utils 2) called the deprecated Buffer(): Node printed a
    // DeprecationWarning on the clerk's terminal (bundled code is not "inside node_modules").
    expect(run.stderr).not.toContain('DeprecationWarning');
    expect(existsSync(join(scratch.dir, 'numeric-cells.resultados.parcial.csv'))).toBe(false);
    const sheet = (await readXlsx(out)).worksheets[0]!;
    const header = sheet.getRow(1).values as unknown[];
    expect(header.slice(1, 3)).toEqual(['Id da proposta', 'Naturalidade']);
    expect(header.slice(-5)).toEqual(['idContrato', 'outcome', 'httpStatus', 'erros', 'result']);
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const width = header.length - 1;
    const cellsOf = (n: number): unknown[] => (sheet.getRow(n).values as unknown[]).slice(1);
    expect(cellsOf(2)[0]).toBe('PROP-1001');
    expect(cellsOf(2)[16]).toBe('01310100');
    expect(cellsOf(2).slice(width - 5, width - 2)).toEqual([results[0]!.idContrato, 'approved', '202']);
    expect(cellsOf(2)[width - 1]).toBe('APROVADO');
    // The run's id before the result columns, as submit --json says it.
    expect(header.slice(-6, -5)).toEqual(['run']);
    expect(cellsOf(2)[width - 6]).toBe((JSON.parse(run.stdout) as { runId: string }).runId);
    expect(cellsOf(4)[width - 4]).toBe('invalid');
    expect(String(cellsOf(4)[width - 2])).toContain('E-mail: is not a valid e-mail address');
    expect(sheet.getRow(2).getCell(width - 3).fill).toMatchObject({ fgColor: { argb: 'FFC6EFCE' } });
    expect(sheet.rowCount).toBe(4);
  });

  it('CSV with --results: a CSV back, original columns then the results, read back as Excel would', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const input = copy('excel-ptbr-cp1252.csv');
    const target = join(scratch.dir, 'saida.csv');
    const junit = join(scratch.dir, 'junit.xml');
    const run = await runCli(['submit', input, '--results', target, '--report', junit], { env: cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token) });
    expect([...readFileSync(junit, 'utf8').matchAll(/<testcase [^>]*name="[^"]*excel-ptbr-cp1252\.csv:(\d+)"/g)].map((m) => m[1])).toEqual(['2', '3', '5']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/excel-ptbr-cp1252\.csv, row 2 +accepted/);
    const text = readFileSync(target, 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const lines = text.slice(1).trimEnd().split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^Id da proposta;Naturalidade;.*;Chave Pix;run;idContrato;outcome;httpStatus;erros;result$/);
    expect(lines[1]).toMatch(/^PROP-1001;São Paulo;.*;r-\d{8}-\d{4}-[0-9a-f]{3};[0-9a-f-]{36};accepted;202;;$/);
    expect(lines[2]).toMatch(/^PROP-1004;.*;;invalid;;".*CEP: must be 8 digits.*"/);
    expect(lines[3]).toMatch(/^PROP-1003;Curitiba;.*;accepted;202;;$/);
    expect(sbx.requests()).toBe(2);
  });
});

/** A `;` CSV of `count` bank-only rows for the catalogue's PROP-2001... (accepted by the sandbox). */
function batchCsv(path: string, count: number): void {
  writeFileSync(path, `${batchCsvLines(count).join('\r\n')}\r\n`);
}

/** The header line and `count` rows of batchCsv. */
function batchCsvLines(count: number): string[] {
  const header = 'Id da proposta;Naturalidade;Estado civil;E-mail;Telefone;Tipo de documento;Número do documento;Órgão expedidor;UF do documento;Data de emissão;Logradouro;Número;Bairro;Cidade;UF;CEP;Código do banco;Agência;Conta;Tipo de conta';
  const rows = Array.from({ length: count }, (_, i) =>
    `PROP-${2001 + i};Recife;CASADO;w${i}@example.com;+5581987654321;RG;1234567${i};SSP;PE;2015-03-21;Rua da Aurora;${i + 1};Boa Vista;Recife;PE;50050000;341;0123;12345-6;CORRENTE`);
  return [header, ...rows];
}

/** Start the binary, and SIGKILL or SIGINT it once `ready` says so (polled every 50 ms). */
function runUntil(args: string[], env: Record<string, string | undefined>, ready: () => boolean, signal: NodeJS.Signals): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [binPath, ...args], { env: { PATH: process.env.PATH, CI: '1', NO_COLOR: '1', ...env } as NodeJS.ProcessEnv, stdio: 'ignore' });
    const poll = setInterval(() => {
      if (ready()) {
        clearInterval(poll);
        child.kill(signal);
      }
    }, 50);
    const limit = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (code) => {
      clearInterval(poll);
      clearTimeout(limit);
      resolve(code);
    });
  });
}

const linesOf = (path: string): string[] => (existsSync(path) ? readFileSync(path, 'utf8').replace(/^\ufeff/, '').split('\r\n').filter(Boolean) : []);

describe('results written as the batch goes', () => {
  it('pt-BR: the results sheet says in Portuguese why a row was not sent (the local errors already are)', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const input = join(scratch.dir, 'lote-pt.csv');
    const [header, first, second] = batchCsvLines(2);
    // Row 4: PROP-2001 again, with another address number: not sent.
    writeFileSync(input, `${[header, first, second, first!.replace(';Rua da Aurora;1;', ';Rua da Aurora;99;')].join('\r\n')}\r\n`);
    const run = await runCli(['submit', input], { env: { ...cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token), LANG: 'pt_BR.UTF-8' } });
    expect(run.code, run.stderr).toBe(5);
    const rows = linesOf(join(scratch.dir, 'lote-pt.resultados.csv')).slice(1);
    expect(rows.map((line) => line.split(';').at(-4))).toEqual(['accepted', 'accepted', 'skipped']);
    expect(rows[2]).toContain('não enviada: a proposta PROP-2001 também está em');
    expect(sbx.requests()).toBe(2);
  });


  it('a crash (SIGKILL) leaves the rows done so far, in order; an xlsx target keeps its partial CSV', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000, latencyMs: 300 });
    const input = join(scratch.dir, 'lote.csv');
    batchCsv(input, 20);
    const partial = join(scratch.dir, 'lote.resultados.parcial.csv');
    const code = await runUntil(['submit', input, '--concurrency', '1', '--results', join(scratch.dir, 'lote.resultados.xlsx')],
      cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token), () => linesOf(partial).length >= 3, 'SIGKILL');
    expect(code).toBe(null);
    const lines = linesOf(partial);
    expect(lines[0]).toMatch(/;idContrato;outcome;httpStatus;erros;result$/);
    const done = lines.slice(1);
    expect(done.length).toBeGreaterThanOrEqual(2);
    expect(done.length).toBeLessThan(20);
    done.forEach((line, i) => expect(line).toMatch(new RegExp(`^PROP-${2001 + i};.*;accepted;202;;$`)));
    expect(existsSync(join(scratch.dir, 'lote.resultados.xlsx'))).toBe(false);
  });

  it('Ctrl-C (SIGINT): exit 130, and the results file has every row, the unsent ones skipped', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000, latencyMs: 300 });
    const input = join(scratch.dir, 'lote.csv');
    batchCsv(input, 20);
    const out = join(scratch.dir, 'lote.resultados.csv');
    // Rows are written to the partial file as they come; the target once, at the end.
    const partial = join(scratch.dir, 'lote.resultados.parcial.csv');
    const code = await runUntil(['submit', input, '--concurrency', '1'], cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token), () => linesOf(partial).length >= 3, 'SIGINT');
    expect(code).toBe(130);
    const rows = linesOf(out).slice(1);
    expect(rows).toHaveLength(20);
    const outcomes = rows.map((line) => line.split(';').at(-4));
    expect(outcomes[0]).toBe('accepted');
    expect(outcomes.at(-1)).toBe('skipped');
    expect(outcomes.filter((o) => o === 'accepted')).toHaveLength(sbx.requests());
    // Interrupted, not crashed: no partial or temporary file left behind.
    expect(readdirSync(scratch.dir).sort()).toEqual(['lote.csv', 'lote.resultados.csv']);
    // The run (issue 26): ended, every row in its ledger, which balances: what was sent, accepted; the rest not sent.
    const shown = await runCli(['runs', 'show', 'last', '--json'], { env: cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token) });
    expect(shown.code, shown.stderr).toBe(0);
    const { run } = JSON.parse(shown.stdout) as { run: { endedAt: string | null; ledger: Record<string, number> } };
    expect(run.endedAt).not.toBeNull();
    expect(run.ledger).toMatchObject({ inputs: 20, accepted: sbx.requests(), waiting: sbx.requests(), notSent: 20 - sbx.requests(), unknown: 0 });
  });
});

describe('a folder', () => {
  it('validate and submit take its sheets (*.csv, *.xlsx, below it too) beside its JSON files, not the results files of a run nor Excel\'s lock files', async () => {
    const folder = join(scratch.dir, 'lote');
    mkdirSync(join(folder, 'filial'), { recursive: true });
    writeFileSync(join(folder, 'a-proposta.json'), JSON.stringify(bankOnly('PROP-2010')));
    batchCsv(join(folder, 'marco.csv'), 3);
    // The xlsx: two rows of the same batch, as PROP-2004 and PROP-2005 (marco.csv has 2001..2003).
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Propostas');
    const [header, ...rows] = batchCsvLines(2);
    sheet.addRow(header!.split(';'));
    rows.forEach((line, i) => sheet.addRow(line.replace(/^PROP-\d+/, `PROP-${2004 + i}`).split(';')));
    await workbook.xlsx.writeFile(join(folder, 'filial', 'abril.xlsx'));
    // What a run (or Excel) leaves beside the sheets.
    writeFileSync(join(folder, 'marco.resultados.csv'), 'Id da proposta;idContrato;outcome\r\nPROP-9;x;accepted\r\n');
    writeFileSync(join(folder, 'marco.resultados.parcial.csv'), 'Id da proposta;idContrato\r\n');
    writeFileSync(join(folder, '~$abril.xlsx'), 'Excel lock file');
    writeFileSync(join(folder, 'notas.txt'), 'not a submission');
    const entries = (doc: { files: RowEntry[] }): Array<[string, number | undefined]> =>
      doc.files.filter((f) => !f.header).map((f) => [f.file.slice(folder.length + 1), f.row]);
    const expected = [['a-proposta.json', undefined], ['filial/abril.xlsx', 2], ['filial/abril.xlsx', 3], ['marco.csv', 2], ['marco.csv', 3], ['marco.csv', 4]];

    const checked = await runCli(['validate', folder, '--json']);
    expect(checked.code, checked.stdout).toBe(0);
    expect(entries(validateJson(checked.stdout))).toEqual(expected);

    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const run = await runCli(['submit', folder, '--json'], { env: cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token) });
    expect(run.code, run.stderr).toBe(0);
    const results = parseSubmitJson(run.stdout).results as unknown as Array<{ file: string; row?: number; outcome: string }>;
    expect(results.map((r) => [r.file.slice(folder.length + 1), r.row, r.outcome])).toEqual(expected.map(([file, row]) => [file, row, 'accepted']));
    expect(sbx.requests()).toBe(6);
    expect(linesOf(join(folder, 'marco.resultados.csv'))).toHaveLength(4);
    expect(existsSync(join(folder, 'filial', 'abril.resultados.xlsx'))).toBe(true);
    // Run again over the folder: the results just written are not read as submissions.
    expect(entries(validateJson((await runCli(['validate', folder, '--json'])).stdout))).toEqual(expected);
  });
});

describe('template', () => {
  it('xlsx: the help sheet explains each column, with the labels of the coded values and their codes', async () => {
    const path = join(scratch.dir, 'modelo.xlsx');
    const made = await runCli(['template', '--lang', 'pt-BR', '--output', path]);
    expect(made.code, made.stderr).toBe(0);
    const [first, help] = (await readXlsx(path)).worksheets;
    expect(first!.name).toBe('Propostas');
    expect((first!.getRow(1).values as unknown[]).slice(1, 4)).toEqual(['Id da proposta', 'Naturalidade', 'Estado civil']);
    expect(first!.getCell('C2').dataValidation).toMatchObject({ type: 'list', formulae: [expect.stringContaining('Casado(a),Divorciado(a)')] });
    expect(first!.getCell('C1000').dataValidation).toMatchObject({ type: 'list' });
    expect(help!.name).toBe('Instruções');
    expect(help!.getRow(4).values).toEqual(expect.arrayContaining(['Estado civil', 'pessoa.estadoCivil', 'Casado(a)', expect.stringContaining('União estável (UNIAO_ESTAVEL)')]));
  });

  it('CSV template in English: the header line, `;`, with a BOM', async () => {
    const run = await runCli(['template', '--format', 'csv', '--lang', 'en', '--output', '-']);
    expect(run.code).toBe(0);
    expect(run.stdout.charCodeAt(0)).toBe(0xfeff);
    expect(run.stdout.slice(1)).toMatch(/^Proposal id;City of birth;Marital status;.*;Pix key\r\n$/);
  });
});

/**
 * Two rows as a clerk fills the template, by its columns (22, in the template's order);
 * `null` where the clerk picks from a list: estado civil, document type, account type.
 */
const CLERK_ROWS: Array<Array<string | null>> = [
  ['PROP-2001', 'Recife', null, 'w1@example.com', '+5581987654321', null, '123456789', 'SSP', 'PE', '2015-03-21',
    'Rua da Aurora', '1', '', 'Boa Vista', 'Recife', 'PE', '50050000', '341', '0123', '12345-6', null, ''],
  ['PROP-2002', 'Olinda', null, 'w2@example.com', '+5581987654322', null, '223456789', 'SSP', 'PE', '2016-04-22',
    'Rua do Sol', '20', 'Casa 2', 'Carmo', 'Olinda', 'PE', '53020000', '001', '4321', '54321-0', null, ''],
];
const CODED_COLUMNS = [2, 5, 20];

/** What a clerk types into a CSV (no drop-down there): the labels of the template's instructions, as people write them. */
const TYPED: Record<'pt-BR' | 'en', string[][]> = {
  'pt-BR': [['Casado(a)', 'RG', 'Conta corrente'], ['união estável', 'rg (carteira de identidade)', 'Poupança']],
  en: [['Married', 'RG (identity card)', 'Checking account'], ['stable union', 'rg', 'savings account']],
};

/** The template's list of a cell: `"a,b,c"` → [a, b, c]. */
function listOf(cell: ExcelJS.Cell): string[] {
  const formula = (cell.dataValidation as { formulae?: string[] } | undefined)?.formulae?.[0] ?? '';
  return formula.replace(/^"|"$/g, '').split(',');
}

describe('template round trip: template → filled as a clerk would → validate passes → submit accepted', () => {
  it.each(['pt-BR', 'en'] as const)('xlsx (%s): the drop-down lists picked, typed text elsewhere', async (lang) => {
    const path = join(scratch.dir, `modelo-${lang}.xlsx`);
    expect((await runCli(['template', '--lang', lang, '--output', path])).code).toBe(0);
    const workbook = await readXlsx(path);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).cellCount).toBe(22);
    CLERK_ROWS.forEach((values, r) => {
      const row = sheet.getRow(r + 2);
      values.forEach((value, c) => {
        const cell = row.getCell(c + 1);
        if (value !== null) {
          // The UF columns have a list too: the value typed must be on it.
          if (cell.dataValidation) expect(listOf(cell)).toContain(value);
          cell.value = value;
          return;
        }
        const list = listOf(cell);
        expect(list.length, `column ${c + 1}`).toBeGreaterThan(1);
        // The first row picks the first value of each list, the second the last but one.
        cell.value = r === 0 ? list[0]! : list[list.length - 2]!;
      });
    });
    expect(CODED_COLUMNS.map((c) => sheet.getRow(3).getCell(c + 1).value)).toEqual(
      lang === 'pt-BR' ? ['Separado(a) judicialmente', 'RG (carteira de identidade)', 'Conta corrente'] : ['Legally separated', 'RG (identity card)', 'Checking account'],
    );
    const filled = join(scratch.dir, `preenchido-${lang}.xlsx`);
    await workbook.xlsx.writeFile(filled);
    await expectValidThenAccepted(filled, [['SOLTEIRO', 'RG', 'CORRENTE'], ['SEPARADO_JUDICIALMENTE', 'RG', 'CORRENTE']]);
  });

  it.each(['pt-BR', 'en'] as const)('CSV (%s): `;` text typed after the header line, labels as the instructions show them', async (lang) => {
    const path = join(scratch.dir, `modelo-${lang}.csv`);
    expect((await runCli(['template', '--format', 'csv', '--lang', lang, '--output', path])).code).toBe(0);
    const lines = CLERK_ROWS.map((values, r) => values.map((value, c) => value ?? TYPED[lang][r]![CODED_COLUMNS.indexOf(c)]!).join(';'));
    writeFileSync(path, `${readFileSync(path, 'utf8')}${lines.join('\r\n')}\r\n`);
    await expectValidThenAccepted(path, [['CASADO', 'RG', 'CORRENTE'], ['UNIAO_ESTAVEL', 'RG', 'POUPANCA']]);
  });
});

describe('coded cells (estado civil, document type, account type)', () => {
  it('a value outside the list is an error naming row and column, listing the labels and codes in the person\'s language', async () => {
    const path = join(scratch.dir, 'fora-da-lista.csv');
    const header = 'Id da proposta;Naturalidade;Estado civil;E-mail;Telefone;Tipo de documento;Número do documento;Órgão expedidor;UF do documento;Data de emissão;Logradouro;Número;Bairro;Cidade;UF;CEP;Código do banco;Agência;Conta;Tipo de conta';
    const row = (estadoCivil: string, tipoConta: string): string =>
      `PROP-2001;Recife;${estadoCivil};w@example.com;+5581987654321;RG;123456789;SSP;PE;2015-03-21;Rua da Aurora;1;Boa Vista;Recife;PE;50050000;341;0123;12345-6;${tipoConta}`;
    writeFileSync(path, [header, row('Casada', 'corrente'), row('Noiva', 'Salário')].join('\r\n'));
    const pt = await runCli(['validate', path], { env: { LANG: 'pt_BR.UTF-8' } });
    expect(pt.code).toBe(1);
    // Row 2's "Casada" and "corrente" are read as CASADO and CORRENTE: the row passes.
    expect(pt.stderr).not.toContain('linha 2');
    expect(pt.stderr).toContain('✗ ' + path + ', linha 3');
    expect(pt.stderr).toContain('Estado civil (pessoa.estadoCivil): "Noiva" não é um dos valores permitidos: Solteiro(a) (SOLTEIRO), Casado(a) (CASADO),');
    expect(pt.stderr).toContain('Tipo de conta (contaBancaria.tipo): "Salário" não é um dos valores permitidos: Conta corrente (CORRENTE), Conta poupança (POUPANCA)');
    // The cell's error is the whole story: no "upper-cased" note of the same cell.
    expect(pt.stderr).not.toContain('SALÁRIO');
    const en = validateJson((await runCli(['validate', path, '--json', '--lang', 'en'])).stdout);
    expect(en.files.find((f) => f.row === 3)!.errors).toEqual([
      { path: 'pessoa.estadoCivil', column: 'Estado civil', message: expect.stringMatching(/^"Noiva" is not one of the allowed values: Single \(SOLTEIRO\), Married \(CASADO\), /) },
      { path: 'contaBancaria.tipo', column: 'Tipo de conta', message: '"Salário" is not one of the allowed values: Checking account (CORRENTE), Savings account (POUPANCA)' },
    ]);
  });
});

/** `validate` passes (exit 0, both rows ok), then `submit` sends both rows with the service's codes, and both are accepted. */
async function expectValidThenAccepted(path: string, codes: string[][]): Promise<void> {
  const checked = await runCli(['validate', path, '--json']);
  expect(checked.code, checked.stdout).toBe(0);
  expect(validateJson(checked.stdout).files.map((f) => [f.row, f.ok])).toEqual([[2, true], [3, true]]);
  const sbx = await startCountedSandbox({ delayMs: 60_000 });
  const sent = await runCli(['submit', path, '--json', '--dry-run'], { env: cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token) });
  expect(sent.code, sent.stderr).toBe(0);
  const bodies = (JSON.parse(sent.stdout) as { requests: Array<{ body: any }> }).requests.map((r) => r.body);
  expect(bodies.map((b) => [b.pessoa.estadoCivil, b.pessoa.documento.tipoDocumento, b.contaBancaria.tipo])).toEqual(codes);
  const run = await runCli(['submit', path, '--json'], { env: cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token) });
  expect(run.code, run.stderr).toBe(0);
  const results = parseSubmitJson(run.stdout).results as unknown as Array<{ row: number; outcome: string }>;
  expect(results.map((r) => [r.row, r.outcome])).toEqual([[2, 'accepted'], [3, 'accepted']]);
  expect(sbx.requests()).toBe(2);
}

describe('--row', () => {
  it('sends only that row; a row that is not a data row exits 2; -i without a terminal says what it needs', async () => {
    const env = { ECONSIG_BASE_URL: 'http://127.0.0.1:9' };
    const one = await runCli(['submit', join(sheets, 'numeric-cells.xlsx'), '--row', '5', '--dry-run', '--json'], { env });
    expect(one.code, one.stderr).toBe(0);
    expect((JSON.parse(one.stdout) as { requests: Array<{ row: number }> }).requests.map((r) => r.row)).toEqual([5]);
    const empty = await runCli(['submit', join(sheets, 'numeric-cells.xlsx'), '--row', '4', '--dry-run'], { env });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('has no data row 4');
    const wizard = await runCli(['submit', '-i', '--file', join(sheets, 'numeric-cells.xlsx'), '--row', '5'], { env });
    expect(wizard.code).toBe(2);
    expect(wizard.stderr).toContain('needs a terminal');
  });
});

describe('files made by LibreOffice (committed; see scripts/make-sheet-fixtures.mjs)', () => {
  it('a CSV opened and saved as xlsx: number cells (agência, CEP, phones) and a date cell come back as the text the service takes', async () => {
    const run = await runCli(['submit', join(sheets, 'libreoffice-from-csv.xlsx'), '--dry-run', '--json'], { env: { ECONSIG_BASE_URL: 'http://127.0.0.1:9' } });
    const doc = JSON.parse(run.stdout) as { requests: Array<{ row: number; body: any }>; files: RowEntry[] };
    expect(doc.requests.map((r) => r.row)).toEqual([2, 5]);
    expect(doc.requests[0]!.body.contaBancaria.agencia).toBe('0001');
    expect(doc.requests[0]!.body.pessoa.documento.dataDeEmissao).toBe('2015-03-21');
    expect(doc.requests[1]!.body.pessoa.telefone).toBe('+5541998765432');
    const row3 = doc.files.find((f) => f.row === 3)!;
    expect(row3.warnings).toContainEqual(expect.objectContaining({ column: 'CEP', message: expect.stringContaining('"01310100"') }));
    expect(row3.errors.map((e) => e.column).sort()).toEqual(['E-mail', 'UF do documento']);
  });

  it('the pt-BR template filled (drop-down labels) and saved by LibreOffice: its 1,000 stored rows of lists are empty rows, the filled one passes with the codes', async () => {
    const path = join(sheets, 'libreoffice-template-filled.xlsx');
    const checked = await runCli(['validate', path, '--json']);
    expect(checked.code, checked.stdout).toBe(0);
    expect(validateJson(checked.stdout).files.map((f) => [f.row, f.ok])).toEqual([[2, true]]);
    const sent = await runCli(['submit', path, '--dry-run', '--json'], { env: { ECONSIG_BASE_URL: 'http://127.0.0.1:9' } });
    const body = (JSON.parse(sent.stdout) as { requests: Array<{ body: any }> }).requests[0]!.body;
    expect([body.pessoa.estadoCivil, body.pessoa.documento.tipoDocumento, body.contaBancaria.tipo]).toEqual(['CASADO', 'RG', 'POUPANCA']);
  });

  it("LibreOffice's own `;` CSV export: its US date is refused naming row and column", async () => {
    const run = await runCli(['validate', join(sheets, 'libreoffice-export-cp1252.csv'), '--json']);
    expect(run.code).toBe(1);
    const row2 = validateJson(run.stdout).files.find((f) => f.row === 2)!;
    expect(row2.errors).toEqual([expect.objectContaining({ path: 'pessoa.documento.dataDeEmissao', column: 'Data de emissão' })]);
    expect(row2.warnings).toContainEqual(expect.objectContaining({ column: 'Agência', message: expect.stringContaining('"1" → "0001"') }));
  });
});
