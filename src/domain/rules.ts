/**
 * Rules that need more than one field, or the date: run after the schema, on the
 * normalised submission, so that one run reports every problem. Pure: `today` is passed in.
 */
import { cepMatchesUf, isRealIsoDate, isUf } from './brazil.js';
import { bankName } from './banks.js';
import type { Issue } from './normalize.js';
import { BANK_FIELDS } from './submission.js';
import { msg } from '../i18n/index.js';

type Node = Record<string, unknown>;

/** An own field of a node (absent when the node is not an object); read once per file. */
function field(node: Node | undefined, key: string): unknown {
  return node !== undefined && Object.hasOwn(node, key) ? node[key] : undefined;
}

/** An own field that is an object, or undefined. */
function branch(node: Node | undefined, key: string): Node | undefined {
  const value = field(node, key);
  return typeof value === 'object' && value !== null ? (value as Node) : undefined;
}

/** An own field that is a string, or undefined. */
function text(node: Node | undefined, key: string): string | undefined {
  const value = field(node, key);
  return typeof value === 'string' ? value : undefined;
}

/** An own field that is a non-empty string. */
function filled(node: Node | undefined, key: string): boolean {
  const value = text(node, key);
  return value !== undefined && value !== '';
}

// Constants, not literals in checkRules: a regex literal is a new RegExp each time.
const CEP_SHAPE = /^\d{8}$/;
const UF_SUFFIX = /[\s/-]([A-Za-z]{2})$/;
const COMPE_SHAPE = /^\d{3}$/;

const EARLIEST_ISSUE_DATE = '1900-01-01';

/** Errors and warnings beyond single-field shape. `today` is `YYYY-MM-DD`. */
export function checkRules(submission: unknown, today: string): { errors: Issue[]; warnings: Issue[] } {
  const errors: Issue[] = [];
  const warnings: Issue[] = [];
  // Each branch looked up once: this runs for every file of a batch.
  const root = typeof submission === 'object' && submission !== null ? (submission as Node) : undefined;
  const pessoa = branch(root, 'pessoa');
  const documento = branch(pessoa, 'documento');
  const endereco = branch(pessoa, 'endereco');
  const conta = branch(root, 'contaBancaria');

  const issued = text(documento, 'dataDeEmissao');
  if (issued !== undefined && isRealIsoDate(issued)) {
    if (issued > today) {
      errors.push({
        path: 'pessoa.documento.dataDeEmissao',
        message: msg('rule.issuedFuture', { date: issued, today }),
      });
    } else if (issued < EARLIEST_ISSUE_DATE) {
      // No identity document of a working person was issued before 1900: a mistyped year.
      errors.push({
        path: 'pessoa.documento.dataDeEmissao',
        message: msg('rule.issuedBefore1900', { date: issued }),
      });
    }
  }

  const cep = text(endereco, 'cep');
  const uf = text(endereco, 'uf');
  if (cep !== undefined && CEP_SHAPE.test(cep) && uf !== undefined && isUf(uf) && !cepMatchesUf(cep, uf)) {
    warnings.push({
      path: 'pessoa.endereco.cep',
      message: msg('rule.cepOutsideUf', { cep, uf }),
    });
  }

  const orgao = text(documento, 'orgaoExpedidor');
  if (orgao !== undefined && orgao.length > 3) {
    const suffix = UF_SUFFIX.exec(orgao)?.[1]?.toUpperCase();
    if (suffix && isUf(suffix)) {
      warnings.push({
        path: 'pessoa.documento.orgaoExpedidor',
        message: msg('rule.orgaoWithUf', { orgao: JSON.stringify(orgao), example: JSON.stringify(orgao.slice(0, -3).trim()) }),
      });
    }
  }

  const compe = text(conta, 'compe');
  if (compe !== undefined && COMPE_SHAPE.test(compe) && !bankName(compe)) {
    warnings.push({
      path: 'contaBancaria.compe',
      message: msg('rule.compeUnknown', { compe }),
    });
  }

  if (filled(conta, 'chavePix')) {
    const given = BANK_FIELDS.filter((name) => filled(conta, name));
    if (given.length > 0) {
      warnings.push({
        path: 'contaBancaria',
        message:
          given.length === BANK_FIELDS.length
            ? msg('rule.bothPayout')
            : msg('rule.partialBankWithPix', { given: given.join(', ') }),
      });
    }
  }
  return { errors, warnings };
}
