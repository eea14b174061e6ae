/**
 * Which field of a submission the service's answer names, so the wizard can ask for that
 * field again (issue 14). The service's codes are not documented beyond SVC_P00003
 * (docs/service.md 7); its messages name the field by its dotted path
 * ("contaBancaria.chavePix: a chave Pix não está vinculada..."), and the sandbox's Pix
 * codes (SVC_B...) concern the Pix key.
 */
import { type FieldPath, fieldSchemas } from './submission.js';

const PATHS = (Object.keys(fieldSchemas) as FieldPath[]).sort((a, b) => b.length - a.length);

/** The field one service error is about, or undefined when it names none (e.g. "in progress"). */
export function fieldOfServiceError(erro: { codigo: string; msg: string }): FieldPath | undefined {
  if (erro.codigo === 'SVC_P00003') return 'idProposta';
  const named = PATHS.find((path) => erro.msg.startsWith(`${path}:`) || erro.msg.startsWith(`${path} `));
  if (named) return named;
  if (/^SVC_B\d+$/.test(erro.codigo)) return 'contaBancaria.chavePix';
  return undefined;
}

/** Every field the errors name, once each, with the first message about it. */
export function fieldsOfServiceErrors(erros: readonly { codigo: string; msg: string }[]): Map<FieldPath, string> {
  const fields = new Map<FieldPath, string>();
  for (const erro of erros) {
    const path = fieldOfServiceError(erro);
    if (path && !fields.has(path)) fields.set(path, erro.msg.startsWith(`${path}:`) ? erro.msg.slice(path.length + 1).trim() : erro.msg);
  }
  return fields;
}
