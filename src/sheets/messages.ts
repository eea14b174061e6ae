/**
 * The sheet's own words (headers, cells, skipped rows) in Portuguese and English. The
 * rule messages of a field come from the domain, as for JSON files.
 */
import type { SheetLang } from './columns.js';

export type { SheetLang } from './columns.js';

/** `--lang` when given, else the first of LC_ALL, LC_MESSAGES, LANG that is set (as the wizard does). */
export function sheetLang(flag: string | undefined, env: Record<string, string | undefined>): SheetLang {
  const locale = flag ?? [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((value) => value !== undefined && value !== '');
  return locale !== undefined && /^pt/i.test(locale) ? 'pt-BR' : 'en';
}

const quote = (text: string): string => JSON.stringify(text);

export const sheetMessages = {
  'pt-BR': {
    unknownColumn: (header: string, near: string | undefined) =>
      `coluna desconhecida ${quote(header)}: ignorada${near ? `; você quis dizer ${quote(near)}?` : ''}`,
    duplicateColumn: (header: string, first: string) => `a coluna ${quote(header)} repete ${quote(first)}: ignorada`,
    missingColumn: (label: string, path: string) => `falta a coluna obrigatória ${quote(label)} (${path})`,
    missingPayout: 'faltam as colunas do pagamento: "Chave Pix" ou "Código do banco", "Agência", "Conta" e "Tipo de conta"',
    missingBankColumns: (labels: string) => `dados bancários incompletos: faltam as colunas ${labels} (e não há coluna "Chave Pix")`,
    noKnownColumn:
      'nenhuma coluna conhecida no cabeçalho: é a aba das propostas? (--sheet escolhe outra aba; econsig template gera um modelo)',
    noHeader: 'a planilha está vazia: a linha 1 deve ter os cabeçalhos (econsig template gera um modelo)',
    noRows: 'a planilha tem só o cabeçalho: nenhuma linha para enviar',
    emptyRows: (rows: string) => `linhas vazias ignoradas: ${rows}`,
    titleRows: (rows: string, header: number) => `linhas acima do cabeçalho (título?) ignoradas: ${rows}; cabeçalho na linha ${header}`,
    numberAsText: (shown: string, text: string, digits: number) =>
      `a célula tem o número ${shown}; lida como o texto ${quote(text)} (${digits} dígitos: o Excel apaga os zeros à esquerda; formate a coluna como Texto)`,
    phoneNumberCell: (shown: string, text: string) =>
      `a célula tem o número ${shown}; lido como ${quote(text)} (uma célula de número perde o "+" do telefone; formate a coluna como Texto)`,
    dateCell: (text: string) => `célula de data lida como ${quote(text)}`,
    formulaNoValue: 'a fórmula não tem valor calculado (salve a planilha no Excel ou LibreOffice antes)',
    cellError: (code: string) => `a célula tem o erro ${code}`,
    lostZerosHint: (fixed: string) => `se o Excel apagou zeros à esquerda, o valor seria ${quote(fixed)}; formate a coluna como Texto`,
    notUtf8: (row: number) => `a partir da linha ${row} o arquivo não é UTF-8 válido, embora o início fosse; salve como "CSV UTF-8"`,
    badCsv: (line: number, reason: string) => `o CSV não pode ser lido na linha ${line} do arquivo: ${reason}`,
    badXlsx: (reason: string) => `o arquivo não é uma planilha .xlsx legível (${reason})`,
    noSheet: (name: string, names: string) => `não há aba ${quote(name)}; abas: ${names}`,
    oldFormat: (ext: string) => `arquivos ${ext} não são lidos: salve como .xlsx ou CSV`,
    stdinTty: 'a entrada padrão é um terminal; envie um arquivo por ela, ex.: cat planilha.csv | econsig validate - --format csv',
  },
  en: {
    unknownColumn: (header: string, near: string | undefined) =>
      `unknown column ${quote(header)}: ignored${near ? `; did you mean ${quote(near)}?` : ''}`,
    duplicateColumn: (header: string, first: string) => `column ${quote(header)} repeats ${quote(first)}: ignored`,
    missingColumn: (label: string, path: string) => `the required column ${quote(label)} (${path}) is missing`,
    missingPayout: 'the payout columns are missing: "Pix key", or "Bank code", "Branch", "Account" and "Account type"',
    missingBankColumns: (labels: string) => `bank data is incomplete: the columns ${labels} are missing (and there is no "Pix key" column)`,
    noKnownColumn: 'no known column in the header: is this the sheet of submissions? (--sheet picks another sheet; econsig template writes one)',
    noHeader: 'the sheet is empty: row 1 must hold the headers (econsig template writes one)',
    noRows: 'the sheet has only its header: no row to send',
    emptyRows: (rows: string) => `empty rows skipped: ${rows}`,
    titleRows: (rows: string, header: number) => `rows above the header (a title?) skipped: ${rows}; header on row ${header}`,
    numberAsText: (shown: string, text: string, digits: number) =>
      `the cell holds the number ${shown}; read as the text ${quote(text)} (${digits} digits: Excel drops leading zeros; format the column as Text)`,
    phoneNumberCell: (shown: string, text: string) =>
      `the cell holds the number ${shown}; read as ${quote(text)} (a number cell loses a phone's "+"; format the column as Text)`,
    dateCell: (text: string) => `date cell read as ${quote(text)}`,
    formulaNoValue: 'the formula has no computed value (save the sheet in Excel or LibreOffice first)',
    cellError: (code: string) => `the cell holds the error ${code}`,
    lostZerosHint: (fixed: string) => `if Excel dropped leading zeros, the value would be ${quote(fixed)}; format the column as Text`,
    notUtf8: (row: number) => `from row ${row} on the file is not valid UTF-8, though its start was; save it as "CSV UTF-8"`,
    badCsv: (line: number, reason: string) => `the CSV cannot be read at line ${line} of the file: ${reason}`,
    badXlsx: (reason: string) => `the file is not a readable .xlsx workbook (${reason})`,
    noSheet: (name: string, names: string) => `there is no sheet ${quote(name)}; sheets: ${names}`,
    oldFormat: (ext: string) => `${ext} files are not read: save it as .xlsx or CSV`,
    stdinTty: 'standard input is a terminal; pipe a file into it, e.g. cat sheet.csv | econsig validate - --format csv',
  },
} as const;

export type SheetMessages = (typeof sheetMessages)[SheetLang];

/** `2, 5-7, 9`: row numbers as ranges, at most 20 parts. */
export function rowRanges(rows: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < rows.length; i++) {
    const start = rows[i] as number;
    let end = start;
    while (rows[i + 1] === end + 1) end = rows[++i] as number;
    parts.push(start === end ? String(start) : `${start}-${end}`);
  }
  return parts.length > 20 ? `${parts.slice(0, 20).join(', ')}, …` : parts.join(', ');
}
