// Writes the spreadsheet fixtures under fixtures/sheets/ as Excel writes them: a Brazilian
// Excel's `;` CSV in Windows-1252, a "CSV UTF-8" with a byte order mark and `,`, and an
// .xlsx (through exceljs) whose CEP, agência and bank code are number cells, with a date
// cell, a formula and a merged title above the header. The files are committed; run this
// again only to change them: `node scripts/make-sheet-fixtures.mjs`.
//
// Two more were made once by LibreOffice 7.4 (Debian's libreoffice-calc-nogui), as a clerk
// would: excel-ptbr-cp1252.csv opened with pt-BR settings and saved as xlsx (CEP, agência,
// bank code and phones became numbers, the DD/MM/YYYY date a date cell), then that saved
// as a `;` Windows-1252 CSV (with LibreOffice's en-US date format, 03/21/15):
//   soffice --headless --infilter='CSV:59,34,1,1,,1046' --convert-to xlsx excel-ptbr-cp1252.csv
//   soffice --headless --convert-to 'csv:Text - txt - csv (StarCalc):59,34,1' libreoffice-from-csv.xlsx
// They are committed as libreoffice-from-csv.xlsx and libreoffice-export-cp1252.csv; the
// tests never need LibreOffice. libreoffice-merged-rows.xlsx is merged-rows.xlsx (below)
// saved by LibreOffice 7.4 the same way; libreoffice-template-filled.xlsx is
// `econsig template --lang pt-BR` with row 2 filled through exceljs (PROP-2001, Casado(a),
// RG (carteira de identidade), Conta poupança), saved by LibreOffice 7.4.
// clerk-typed-cp1252.csv (issue 24) is what a clerk types: a bank by name (Itaú, Caixa), dates
// as 5/8/2019 and 05/08/19, a CPF Pix key without its leading zero, a CEP 1310-100, the same
// proposal twice and an unknown column (Observações); libreoffice-clerk.xlsx is that file
// opened by LibreOffice with the same --infilter as above and saved as xlsx (the key and the
// agência number cells, the dates date cells).
import { mkdirSync, writeFileSync } from 'node:fs';
import ExcelJS from 'exceljs';

const out = new URL('../fixtures/sheets/', import.meta.url);
mkdirSync(out, { recursive: true });

const PT = ['Id da proposta', 'Naturalidade', 'Estado civil', 'E-mail', 'Telefone', 'Tipo de documento', 'Número do documento', 'Órgão expedidor',
  'UF do documento', 'Data de emissão', 'Logradouro', 'Número', 'Complemento', 'Bairro', 'Cidade', 'UF', 'CEP', 'Código do banco', 'Agência',
  'Conta', 'Tipo de conta', 'Chave Pix'];

// Row values in PT's order. PROP-1001 (approved in the sandbox), PROP-1003 (approved), PROP-1002 (denied).
const maria = ['PROP-1001', 'São Paulo', 'união estável', 'maria.silva@example.com', '(11) 91234-5678', 'RG', '123456789', 'SSP', 'SP', '21/03/2015',
  'Avenida Paulista', '1578', 'Apto 12', 'Bela Vista', 'São Paulo', 'SP', '01310-100', '260', '0001', '1234567-8', 'CORRENTE', '52998224725'];
const ana = ['PROP-1003', 'Curitiba', 'SOLTEIRO', 'ana.lima@example.com', '+5541998765432', 'RG', '987654321', 'SSP', 'PR', '2018-07-02',
  'Rua XV de Novembro', 's/n', '', 'Centro', 'Curitiba', 'PR', '80020310', '', '', '', '', 'ana.lima@example.com'];
const joao = ['PROP-1002', 'Belém', 'CASADO', 'joao.souza@example.com', '+5511987654321', 'RG', '55443322', 'SSP', 'PA', '2010-01-15',
  'Travessa Padre Eutíquio', '250', '', 'Batista Campos', 'Belém', 'PA', '66023710', '', '', '', '', '+5511987654321'];
/** Invalid: CEP of 7 digits (the zero Excel dropped), e-mail without @, and an unknown UF. */
const broken = ['PROP-1004', 'Santos', 'CASADO', 'maria.silva.example.com', '+5513912345678', 'RG', '123456789', 'SSP', 'SX', '2015-03-21',
  'Rua do Comércio', '10', '', 'Centro', 'Santos', 'SP', '1310100', '', '', '', '', '52998224725'];

const csvField = (text, sep) => (text.includes(sep) || /["\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
const csv = (rows, sep) => rows.map((row) => row.map((cell) => csvField(cell, sep)).join(sep)).join('\r\n') + '\r\n';

/** Windows-1252 of a string with Latin-1 characters only (what these fixtures hold). */
function cp1252(text) {
  const bytes = Buffer.alloc(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0xff) throw new Error(`not Latin-1: ${text[i]}`);
    bytes[i] = code;
  }
  return bytes;
}

// 1. Excel (pt-BR) "CSV (separado por vírgulas)": `;`, Windows-1252, CRLF, an empty row of separators.
writeFileSync(new URL('excel-ptbr-cp1252.csv', out), cp1252(csv([PT, maria, broken, Array(PT.length).fill(''), ana], ';')));

// 2. Excel "CSV UTF-8": BOM, `,`, English labels and dotted paths mixed, quoted commas and quotes.
const EN = ['Proposal id', 'City of birth', 'Marital status', 'Email', 'Phone', 'Document type', 'Document number', 'Issuing body',
  'Document state', 'Issue date', 'Street', 'Number', 'pessoa.endereco.complemento', 'Neighbourhood', 'City', 'State', 'Postal code',
  'Bank code', 'Branch', 'Account', 'Account type', 'Pix key', 'Notes'];
const withComma = [...maria];
withComma[12] = 'Apto 12, bloco "B"';
writeFileSync(new URL('excel-utf8-bom.csv', out), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(csv([EN, [...withComma, 'ligar, se faltar'], [...joao, '']], ','), 'utf8')]));

// 3. .xlsx with number cells where text is expected, a date cell, a formula, a merged title.
const workbook = new ExcelJS.Workbook();
const sheet = workbook.addWorksheet('Lote março');
sheet.addRow(['Lote de março: propostas do RH']);
sheet.mergeCells('A1:F1');
sheet.addRow(PT);
const typed = (values) =>
  values.map((value, i) => {
    const header = PT[i];
    if (value === '') return null;
    if (header === 'CEP' || header === 'Agência' || header === 'Código do banco') return Number(value.replace(/\D/g, ''));
    if (header === 'Data de emissão') {
      const [d, m, y] = value.includes('/') ? value.split('/') : value.split('-').reverse();
      return new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
    }
    return value;
  });
sheet.addRow(typed(maria));
sheet.addRow([]);
const anaRow = typed(ana);
anaRow[14] = { formula: 'PROPER("curitiba")', result: 'Curitiba' };
sheet.addRow(anaRow);
sheet.getColumn(10).numFmt = 'dd/mm/yyyy';
sheet.addRow(typed(broken));
await workbook.xlsx.writeFile(new URL('numeric-cells.xlsx', out).pathname);

// 4. Two sheets: `--sheet Propostas` picks the second.
const two = new ExcelJS.Workbook();
two.addWorksheet('Leia-me').addRow(['Preencha a aba Propostas']);
const propostas = two.addWorksheet('Propostas');
propostas.addRow(PT);
propostas.addRow(ana);
await two.xlsx.writeFile(new URL('two-sheets.xlsx', out).pathname);

// 5. Merged rows inside the data: section titles merged across every column (rows 3 and 6,
// with an empty row 5 before the second), and a data row with two of its cells merged
// (Logradouro over Número, row 8), which stays a row. LibreOffice's own writing of it:
//   soffice --headless --convert-to xlsx --outdir lo merged-rows.xlsx  →  libreoffice-merged-rows.xlsx
const merged = new ExcelJS.Workbook();
const sections = merged.addWorksheet('Propostas');
sections.getRow(1).values = PT;
sections.getRow(2).values = maria;
sections.getRow(3).values = ['Filial Curitiba'];
sections.mergeCells('A3:V3');
sections.getRow(4).values = ana;
sections.getRow(6).values = ['Pendências de março'];
sections.mergeCells('A6:V6');
sections.getRow(7).values = joao;
sections.getRow(8).values = ['PROP-1004', 'Santos', 'CASADO', 'x@example.com', '+5513912345678', 'RG', '123456789', 'SSP', 'SP', '2015-03-21',
  'Rua do Comércio', '', '', 'Centro', 'Santos', 'SP', '11010000', '', '', '', '', 'x@example.com'];
sections.mergeCells('K8:L8');
await merged.xlsx.writeFile(new URL('merged-rows.xlsx', out).pathname);

console.log('fixtures/sheets written');
