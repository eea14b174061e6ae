/**
 * Rules that need more than one field, or the date: run after the schema, on the
 * normalised submission, so that one run reports every problem. Pure: `today` is passed in.
 */
import { cepMatchesUf, isRealIsoDate, isUf } from './brazil.js';
import { bankName } from './banks.js';
import type { Issue } from './normalize.js';
import { BANK_FIELDS } from './submission.js';

function child(node: unknown, key: string): unknown {
  return typeof node === 'object' && node !== null && Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
}

/** The value at a path of one to three keys, or undefined (fixed arity: this runs per file). */
function at(value: unknown, a: string, b?: string, c?: string): unknown {
  const first = child(value, a);
  if (b === undefined) return first;
  const second = child(first, b);
  return c === undefined ? second : child(second, c);
}

// Constants, not literals in checkRules: a regex literal is a new RegExp each time.
const CEP_SHAPE = /^\d{8}$/;
const UF_SUFFIX = /[\s/-]([A-Za-z]{2})$/;
const COMPE_SHAPE = /^\d{3}$/;

const filled = (value: unknown): boolean => typeof value === 'string' && value !== '';

const EARLIEST_ISSUE_DATE = '1900-01-01';

/** Errors and warnings beyond single-field shape. `today` is `YYYY-MM-DD`. */
export function checkRules(submission: unknown, today: string): { errors: Issue[]; warnings: Issue[] } {
  const errors: Issue[] = [];
  const warnings: Issue[] = [];

  const issued = at(submission, 'pessoa', 'documento', 'dataDeEmissao');
  if (typeof issued === 'string' && isRealIsoDate(issued) && issued > today) {
    errors.push({
      path: 'pessoa.documento.dataDeEmissao',
      message: `is in the future (${issued}; today is ${today}); use the date printed on the document`,
    });
  } else if (typeof issued === 'string' && isRealIsoDate(issued) && issued < EARLIEST_ISSUE_DATE) {
    // No identity document of a working person was issued before 1900: a mistyped year.
    errors.push({
      path: 'pessoa.documento.dataDeEmissao',
      message: `${issued} is before 1900; check the year (the date printed on the document, YYYY-MM-DD)`,
    });
  }

  const cep = at(submission, 'pessoa', 'endereco', 'cep');
  const uf = at(submission, 'pessoa', 'endereco', 'uf');
  if (typeof cep === 'string' && CEP_SHAPE.test(cep) && typeof uf === 'string' && isUf(uf) && !cepMatchesUf(cep, uf)) {
    warnings.push({
      path: 'pessoa.endereco.cep',
      message: `CEP ${cep} is outside the postal range of ${uf}; check the CEP and the state`,
    });
  }

  const orgao = at(submission, 'pessoa', 'documento', 'orgaoExpedidor');
  if (typeof orgao === 'string') {
    const suffix = UF_SUFFIX.exec(orgao)?.[1]?.toUpperCase();
    if (suffix && isUf(suffix) && orgao.length > 3) {
      warnings.push({
        path: 'pessoa.documento.orgaoExpedidor',
        message: `"${orgao}" includes a state; the state of issue belongs in pessoa.documento.uf (send e.g. "${orgao.slice(0, -3).trim()}")`,
      });
    }
  }

  const compe = at(submission, 'contaBancaria', 'compe');
  if (typeof compe === 'string' && COMPE_SHAPE.test(compe) && !bankName(compe)) {
    warnings.push({
      path: 'contaBancaria.compe',
      message: `bank code ${compe} is not in the list of STR participants; check it`,
    });
  }

  const conta = at(submission, 'contaBancaria');
  if (filled(at(conta, 'chavePix'))) {
    const given = BANK_FIELDS.filter((name) => filled(at(conta, name)));
    if (given.length > 0) {
      warnings.push({
        path: 'contaBancaria',
        message:
          given.length === BANK_FIELDS.length
            ? 'both bank data and a Pix key were given: the service replaces the bank data with the account linked to the key'
            : `incomplete bank data (${given.join(', ')}) with a Pix key: the service pays to the account linked to the key`,
      });
    }
  }
  return { errors, warnings };
}
