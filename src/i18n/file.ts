/**
 * The files econsig writes (src/safe-file.ts): a path it will not write. Part of the one
 * catalogue of i18n/index.ts.
 */
export const en = {
  'file.refused': 'will not write {path}: it is {kind}',
  'file.refusedHint': 'econsig writes only regular files and never through a link. Remove it, or choose another path.',
  'file.kindLink': 'a symbolic link',
  'file.kindFifo': 'a named pipe (FIFO)',
  'file.kindFolder': 'a folder',
  'file.kindDevice': 'a device',
  'file.kindSocket': 'a socket',
  // A file named by a setting or flag, read whole (src/safe-file.ts readRegularFile).
  'file.notRegular': 'it is {kind}, not a regular file',
  'file.tooLarge': 'it is larger than {limit}, more than a settings file holds',
} as const;

export const ptBR: Record<keyof typeof en, string> = {
  'file.refused': 'o econsig não grava em {path}: é {kind}',
  'file.refusedHint': 'O econsig grava apenas arquivos comuns e nunca através de um link. Remova-o, ou escolha outro caminho.',
  'file.kindLink': 'um link simbólico',
  'file.kindFifo': 'um pipe nomeado (FIFO)',
  'file.kindFolder': 'uma pasta',
  'file.kindDevice': 'um dispositivo',
  'file.kindSocket': 'um socket',
  'file.notRegular': 'é {kind}, não um arquivo comum',
  'file.tooLarge': 'tem mais de {limit}, mais do que um arquivo de configuração guarda',
};
