import { type Message, type Value, personal } from '../i18n/index.js';
import { personalKindOfPath } from '../redact.js';

/** A problem found in a submission, or a change made to it. Import-light: no zod here. */
export interface Issue {
  /** Dotted JSON path, e.g. `pessoa.endereco.cep`; `(root)` for the document itself. */
  path: string;
  message: Message;
}

/** The path of a problem with the document as a whole. */
export const ROOT_PATH = '(root)';

/**
 * A field's value as a message quotes it: a person's data (a CPF or other Pix key, an
 * account, a phone, an e-mail, a document's number) marked, so it is said masked unless
 * the run shows it (--reveal); any other value in quotes. Every message that echoes a
 * submission's value goes through here (test/unit/domain/personal-data.test.ts checks it).
 */
export function shownValue(path: string, value: string): Value {
  const kind = personalKindOfPath(path);
  return kind === undefined ? JSON.stringify(value) : personal(kind, value);
}
