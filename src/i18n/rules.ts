/**
 * The field rules' texts (domain/): what is wrong with a value and an example of a good
 * one, and the notes of what normalisation changed. Part of the one catalogue of
 * i18n/index.ts.
 */
export const en = {} as const;

export const ptBR: Record<keyof typeof en, string> = {};
