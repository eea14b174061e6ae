/**
 * The people's message catalogue: every text of the submit run that a person reads, in
 * English and Brazilian Portuguese (issue 14). The wizard's own words are in
 * ui/wizard/messages.ts, in pairs. A typed catalogue rather than i18next: two languages,
 * no plural rules beyond one/many, no runtime loading; the compiler refuses a key missing
 * from one language (Record<Key, string>), and test/unit/ui/i18n.test.ts checks the
 * placeholders match. --json keeps English field names and codes; only people's text here.
 */
import type { Outcome } from '../domain/outcome.js';

export type Lang = 'pt-BR' | 'en';

/** `--lang` when given, else the first of LC_ALL, LC_MESSAGES, LANG that is set: Portuguese or English. */
export function langOf(flag: string | undefined, env: Record<string, string | undefined>): Lang {
  const locale = flag ?? [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((value) => value !== undefined && value !== '');
  return locale !== undefined && /^pt/i.test(locale) ? 'pt-BR' : 'en';
}

const en = {
  // Labels
  hintLabel: 'hint:',
  warningLabel: 'warning:',
  errorLabel: 'error:',
  causeLabel: 'cause:',
  errorLine: 'error  ',
  warningLine: 'warning',
  // The target line and progress
  wizardEntry: '(wizard)',
  submissionOne: 'submission',
  submissionMany: 'submissions',
  target: '{n} {submissions} to send to {url} (profile {profile})',
  notSent: '; not sent: {list}',
  invalidCount: '{n} invalid',
  duplicateOne: '1 duplicate of a proposal earlier in the batch',
  duplicateMany: '{n} duplicates of a proposal earlier in the batch',
  resultsVia: 'results: {how}',
  waitListening: 'listening on {url}',
  waitFollowing: 'following the store of `econsig watch` at {url}',
  waitStore: 'results from the team store {url}',
  waitingFor: '{file}  waiting for the result of contract {id}',
  answered: '{done}/{total} answered',
  waitingResultOne: ', waiting for 1 result',
  waitingResultMany: ', waiting for {n} results',
  waitingOne: 'waiting for the approval result (webhook)…',
  sending: 'sending…',
  stopping: 'interrupted; stopping…',
  finishing: 'interrupted; finishing what is in flight…',
  interrupted: 'Interrupted: nothing more is sent; what is in flight is recorded.\nCtrl-C again leaves at once.',
  summary: '{n} {submissions}: {parts}',
  summaryInterrupted: ' (interrupted)',
  invalidNotSent: 'not sent',
  moreErros: '… and {n} more (--json lists them all)',
  // Outcomes, as people read them
  outcome_invalid: 'invalid',
  outcome_accepted: 'accepted',
  outcome_approved: 'approved',
  outcome_denied: 'denied',
  outcome_timeout: 'timeout',
  outcome_not_found: 'not_found',
  outcome_rejected: 'rejected',
  outcome_unauthorized: 'unauthorized',
  outcome_rate_limited: 'rate_limited',
  outcome_unavailable: 'unavailable',
  outcome_unknown: 'unknown',
  outcome_skipped: 'skipped',
  outcomes_invalid: 'invalid',
  outcomes_accepted: 'accepted',
  outcomes_approved: 'approved',
  outcomes_denied: 'denied',
  outcomes_timeout: 'timeout',
  outcomes_not_found: 'not_found',
  outcomes_rejected: 'rejected',
  outcomes_unauthorized: 'unauthorized',
  outcomes_rate_limited: 'rate_limited',
  outcomes_unavailable: 'unavailable',
  outcomes_unknown: 'unknown',
  outcomes_skipped: 'skipped',
  // What happened (flows/submit-batch.ts SaidKey)
  accepted: '202 accepted: contract {id}',
  alreadyAccepted: 'already accepted at {when}: contract {id} (from the store, not sent again)',
  alreadyApproved: 'already approved: contract {id} (sent {when}; from the store, not sent again)',
  rejected: '{status} rejected by the service',
  notFound: '404 proposal {id} not found',
  unauthorized: '401 unauthorized: the token is invalid or expired',
  rateLimited: '429 too many requests, still refused after {n} attempt(s)',
  unavailable: 'service unavailable: nothing was sent',
  interruptedNotSent: 'not sent: interrupted',
  refusedEarlier: 'not sent: the service refused the token (401) for {file}',
  sameAs: 'the same submission as {file}, sent once',
  alsoIn: 'not sent: proposal {id} is also in {file}, earlier in this batch, with different data',
  resultApproved: 'contract {id} approved{reason}',
  resultDenied: 'contract {id} denied{reason}',
  resultCancelled: 'contract {id} cancelled{reason}',
  noResultWithin: 'contract {id}: no result within {seconds}s',
  stoppedWaiting: 'contract {id}: stopped waiting for the result (interrupted)',
  mayExist: 'no answer that settles it: a contract for proposal {id} may exist',
  heldUnanswered: 'not sent: proposal {id} was claimed at {when} and has no answer recorded; it may have arrived',
  heldUnknown: 'not sent: the earlier submission of {id} ({when}) ended unknown; it may exist',
  hintCheck: 'Check before sending again: `econsig history --proposal {id}` and `econsig watch` show whether a result arrives. Use --force only once you know it does not exist.',
  hintRejected: 'Fix what the service names and send again. "In progress" means an earlier contract of this worker is not finished yet.',
  hintNotFound: 'Check idProposta: it must be the id of a simulated proposal the worker chose.',
  hintRateLimited: 'Nothing was created. Send again later, or lower --concurrency.',
  hintInterrupted: 'Run the same command again: only what was not sent is sent.',
  hintAlsoIn: 'One contract per proposal: keep one of the two files, or send this one later with --force.',
  hintTimeout: 'The contract exists. Follow it with `econsig watch --contract {id}` or `econsig history --contract {id}`.',
  // Prompts
  yes: 'Yes',
  no: 'No',
  yesOrNo: 'Answer "{yes}" or "{no}"',
  noResults: 'No results found',
  nothingSent: 'Nothing was sent.',
  interruptedNothingSent: 'Interrupted; nothing was sent.',
  confirmSend: 'Send {n} {submissions} to {url} (profile {profile})?',
} as const;

export type MessageKey = keyof typeof en;

const ptBR: Record<MessageKey, string> = {
  hintLabel: 'dica:',
  warningLabel: 'aviso:',
  errorLabel: 'erro:',
  causeLabel: 'causa:',
  errorLine: 'erro   ',
  warningLine: 'aviso  ',
  wizardEntry: '(assistente)',
  submissionOne: 'submissão',
  submissionMany: 'submissões',
  target: '{n} {submissions} para enviar a {url} (perfil {profile})',
  notSent: '; não enviadas: {list}',
  invalidCount: '{n} inválida(s)',
  duplicateOne: '1 repetida de uma proposta anterior no lote',
  duplicateMany: '{n} repetidas de propostas anteriores no lote',
  resultsVia: 'resultados: {how}',
  waitListening: 'escutando em {url}',
  waitFollowing: 'acompanhando o registro do `econsig watch` em {url}',
  waitStore: 'resultados do registro da equipe {url}',
  waitingFor: '{file}  aguardando o resultado do contrato {id}',
  answered: '{done}/{total} respondidas',
  waitingResultOne: ', aguardando 1 resultado',
  waitingResultMany: ', aguardando {n} resultados',
  waitingOne: 'aguardando o resultado da aprovação (webhook)…',
  sending: 'enviando…',
  stopping: 'interrompido; parando…',
  finishing: 'interrompido; concluindo o que está em andamento…',
  interrupted: 'Interrompido: nada mais é enviado; o que está em andamento fica registrado.\nCtrl-C de novo sai na hora.',
  summary: '{n} {submissions}: {parts}',
  summaryInterrupted: ' (interrompido)',
  invalidNotSent: 'não enviada',
  moreErros: '… e mais {n} (--json lista todos)',
  outcome_invalid: 'inválida',
  outcome_accepted: 'aceita',
  outcome_approved: 'aprovada',
  outcome_denied: 'negada',
  outcome_timeout: 'sem resultado',
  outcome_not_found: 'não encontrada',
  outcome_rejected: 'recusada',
  outcome_unauthorized: 'não autorizada',
  outcome_rate_limited: 'limite excedido',
  outcome_unavailable: 'indisponível',
  outcome_unknown: 'incerta',
  outcome_skipped: 'não enviada',
  outcomes_invalid: 'inválidas',
  outcomes_accepted: 'aceitas',
  outcomes_approved: 'aprovadas',
  outcomes_denied: 'negadas',
  outcomes_timeout: 'sem resultado',
  outcomes_not_found: 'não encontradas',
  outcomes_rejected: 'recusadas',
  outcomes_unauthorized: 'não autorizadas',
  outcomes_rate_limited: 'limite excedido',
  outcomes_unavailable: 'indisponíveis',
  outcomes_unknown: 'incertas',
  outcomes_skipped: 'não enviadas',
  accepted: '202 aceita: contrato {id}',
  alreadyAccepted: 'já aceita em {when}: contrato {id} (do registro local, não enviada de novo)',
  alreadyApproved: 'já aprovada: contrato {id} (enviada em {when}; do registro local, não enviada de novo)',
  rejected: '{status} recusada pelo serviço',
  notFound: '404 proposta {id} não encontrada',
  unauthorized: '401 não autorizado: o token é inválido ou expirou',
  rateLimited: '429 requisições demais, ainda recusada depois de {n} tentativa(s)',
  unavailable: 'serviço indisponível: nada foi enviado',
  interruptedNotSent: 'não enviada: interrompido',
  refusedEarlier: 'não enviada: o serviço recusou o token (401) em {file}',
  sameAs: 'a mesma submissão de {file}, enviada uma vez',
  alsoIn: 'não enviada: a proposta {id} também está em {file}, antes neste lote, com outros dados',
  resultApproved: 'contrato {id} aprovado{reason}',
  resultDenied: 'contrato {id} negado{reason}',
  resultCancelled: 'contrato {id} cancelado{reason}',
  noResultWithin: 'contrato {id}: nenhum resultado em {seconds}s',
  stoppedWaiting: 'contrato {id}: deixou de aguardar o resultado (interrompido)',
  mayExist: 'sem resposta conclusiva: o contrato da proposta {id} pode existir',
  heldUnanswered: 'não enviada: a proposta {id} foi reservada em {when} e não tem resposta registrada; pode ter chegado',
  heldUnknown: 'não enviada: o envio anterior de {id} ({when}) terminou incerto; pode existir',
  hintCheck: 'Confira antes de enviar de novo: `econsig history --proposal {id}` e `econsig watch` mostram se chega um resultado. Use --force só quando souber que ele não existe.',
  hintRejected: 'Corrija o que o serviço aponta e envie de novo. "Em andamento" quer dizer que um contrato anterior deste trabalhador ainda não terminou.',
  hintNotFound: 'Confira o idProposta: deve ser o id de uma proposta simulada que o trabalhador escolheu.',
  hintRateLimited: 'Nada foi criado. Envie de novo mais tarde, ou reduza --concurrency.',
  hintInterrupted: 'Rode o mesmo comando de novo: só o que não foi enviado será enviado.',
  hintAlsoIn: 'Um contrato por proposta: mantenha um dos dois arquivos, ou envie este depois com --force.',
  hintTimeout: 'O contrato existe. Acompanhe com `econsig watch --contract {id}` ou `econsig history --contract {id}`.',
  yes: 'Sim',
  no: 'Não',
  yesOrNo: 'Responda "{yes}" ou "{no}"',
  noResults: 'Nenhum resultado',
  nothingSent: 'Nada foi enviado.',
  interruptedNothingSent: 'Interrompido; nada foi enviado.',
  confirmSend: 'Enviar {n} {submissions} a {url} (perfil {profile})?',
};

export const CATALOGUE: Readonly<Record<Lang, Readonly<Record<MessageKey, string>>>> = { en, 'pt-BR': ptBR };

/** A text of the catalogue with its `{name}` placeholders filled. */
export function tr(lang: Lang, key: MessageKey, values: Record<string, string | number> = {}): string {
  return CATALOGUE[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) => (values[name] === undefined ? whole : String(values[name])));
}

/** "submission" or "submissions" in `lang`, for `n`. */
export function submissions(lang: Lang, n: number): string {
  return tr(lang, n === 1 ? 'submissionOne' : 'submissionMany');
}

/** An outcome of the --json contract, as people read it (for `n` of them). */
export function outcomeName(lang: Lang, outcome: Outcome, n = 1): string {
  return tr(lang, `${n === 1 ? 'outcome' : 'outcomes'}_${outcome}` as MessageKey);
}
