/**
 * Reading the files an operator names (flows/inputs.ts): missing or unreadable paths,
 * empty folders, files too large, text that is not JSON. Part of the one catalogue of
 * i18n/index.ts.
 */
export const en = {
  'input.missing': '{path} does not exist',
  'input.duplicateProposal': 'proposal {id} is also {where}: one contract per proposal; keep one of the two',
  'input.duplicateRow': 'in row {row}',
  'input.duplicateFile': 'in {file}',
  'input.duplicateFileRow': 'in {file}, row {row}',
  'input.denied': '{path} cannot be read (permission denied)',
  'input.isFolder': '{path} is a folder',
  'input.unreadable': '{path} cannot be read ({cause})',
  'input.emptyFolder': 'folder {path} has no *.json, *.csv or *.xlsx files',
  'input.stdinTty': 'standard input is a terminal; pipe a file into it, e.g. cat proposal.json | econsig validate -',
  'input.tooLarge': 'file is {size} MiB; a submission is one small JSON object (at most 1 MiB)',
  'input.streamTooLarge': '{name} is over 1 MiB; a submission is one small JSON object',
  'input.empty': 'file is empty; expected one JSON object (a submission)',
  'input.notJson': 'not valid JSON{where}: {reason}',
  'input.notJsonButCsv': 'not valid JSON{where}: {reason}; its first line looks like a CSV header: add --format csv (a sheet on standard input needs it)',
  'input.at': ' at line {line}, column {column}',
} as const;

export const ptBR: Record<keyof typeof en, string> = {
  'input.missing': '{path} não existe',
  'input.duplicateProposal': 'a proposta {id} também está {where}: um contrato por proposta; mantenha só uma das duas',
  'input.duplicateRow': 'na linha {row}',
  'input.duplicateFile': 'em {file}',
  'input.duplicateFileRow': 'em {file}, linha {row}',
  'input.denied': '{path} não pode ser lido (permissão negada)',
  'input.isFolder': '{path} é uma pasta',
  'input.unreadable': '{path} não pode ser lido ({cause})',
  'input.emptyFolder': 'a pasta {path} não tem arquivos *.json, *.csv ou *.xlsx',
  'input.stdinTty': 'a entrada padrão é um terminal; envie um arquivo por ela, ex.: cat proposta.json | econsig validate -',
  'input.tooLarge': 'o arquivo tem {size} MiB; uma submissão é um único objeto JSON pequeno (no máximo 1 MiB)',
  'input.streamTooLarge': '{name} passa de 1 MiB; uma submissão é um único objeto JSON pequeno',
  'input.empty': 'o arquivo está vazio; esperado um objeto JSON (uma submissão)',
  'input.notJson': 'JSON inválido{where}: {reason}',
  'input.notJsonButCsv': 'JSON inválido{where}: {reason}; a primeira linha parece o cabeçalho de um CSV: acrescente --format csv (uma planilha na entrada padrão precisa dele)',
  'input.at': ' na linha {line}, coluna {column}',
};
