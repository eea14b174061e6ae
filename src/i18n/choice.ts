/**
 * The labels of the service's coded values (estado civil, document type, account type):
 * what the wizard's lists, the template's drop-down lists and its instructions show, and
 * what a sheet's reader accepts besides the codes (src/sheets/choices.ts). The key is
 * `choice.` and the service's code. Part of the one catalogue of i18n/index.ts.
 */
export const en = {
  'choice.SOLTEIRO': 'Single',
  'choice.CASADO': 'Married',
  'choice.DIVORCIADO': 'Divorced',
  'choice.VIUVO': 'Widowed',
  'choice.SEPARADO': 'Separated',
  'choice.UNIAO_ESTAVEL': 'Stable union',
  'choice.SEPARADO_JUDICIALMENTE': 'Legally separated',
  'choice.NAO_INFORMADO': 'Not stated',
  'choice.OUTROS': 'Other',
  'choice.RG': 'RG (identity card)',
  'choice.CNH': "CNH (driver's licence)",
  'choice.CORRENTE': 'Checking account',
  'choice.POUPANCA': 'Savings account',
  'choice.withCode': '{label} ({code})',
  'choice.allowed': '{choices}',
} as const;

export const ptBR: Record<keyof typeof en, string> = {
  'choice.SOLTEIRO': 'Solteiro(a)',
  'choice.CASADO': 'Casado(a)',
  'choice.DIVORCIADO': 'Divorciado(a)',
  'choice.VIUVO': 'Viúvo(a)',
  'choice.SEPARADO': 'Separado(a)',
  'choice.UNIAO_ESTAVEL': 'União estável',
  'choice.SEPARADO_JUDICIALMENTE': 'Separado(a) judicialmente',
  'choice.NAO_INFORMADO': 'Não informado',
  'choice.OUTROS': 'Outros',
  'choice.RG': 'RG (carteira de identidade)',
  'choice.CNH': 'CNH (carteira de motorista)',
  'choice.CORRENTE': 'Conta corrente',
  'choice.POUPANCA': 'Conta poupança',
  'choice.withCode': '{label} ({code})',
  'choice.allowed': '{choices}',
};
