import type { Message } from '../i18n/index.js';

/** A problem found in a submission, or a change made to it. Import-light: no zod here. */
export interface Issue {
  /** Dotted JSON path, e.g. `pessoa.endereco.cep`; `(root)` for the document itself. */
  path: string;
  message: Message;
}

/** The path of a problem with the document as a whole. */
export const ROOT_PATH = '(root)';
