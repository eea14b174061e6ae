/**
 * `sandbox trigger`'s texts (ui/trigger-output.ts, flows/sandbox-trigger.ts, commands/trigger.ts).
 * Part of the one catalogue of i18n/index.ts.
 */
export const en = {
  'trigger.which': 'Trigger the result of which contract?',
  'trigger.whichHint': 'Give exactly one of --contract <idContrato> (a contract the running sandbox issued) or --proposal <idProposta> (the sandbox creates its contract first).',
  'trigger.noSandbox': 'No running sandbox was announced in {home}.',
  'trigger.noSandboxHint': 'Start one (`econsig sandbox`) with this ECONSIG_HOME, or give --sandbox <url> and its token in ECONSIG_TOKEN.',
  'trigger.noToken': 'No token for the sandbox at {url}.',
  'trigger.noTokenHint': 'Give the token `econsig sandbox` printed in ECONSIG_TOKEN.',
  'trigger.unreachable': 'The sandbox at {url} did not answer: {cause}',
  'trigger.unreachableHint': 'Is `econsig sandbox` running there?',
  'trigger.unauthorized': 'The sandbox at {url} refused the token.',
  'trigger.unauthorizedHint': 'Use the token that sandbox printed (ECONSIG_TOKEN), or the one it announced in this ECONSIG_HOME.',
  'trigger.unknownContract': 'The sandbox at {url} did not issue contract {id}.',
  'trigger.unknownContractHint': 'Use an idContrato that sandbox answered (`econsig history`), or --proposal to create one.',
  'trigger.refused': 'The sandbox at {url} refused the trigger ({status}): {detail}',
  'trigger.notSandbox': '{url} answered {status}, not as an econsig sandbox answers a trigger.',
  'trigger.sent': '{outcome} of {contract} (webhook-id {webhookId}) sent {n} of {times}',
  'trigger.attempt': 'copy {n}: the receiver answered {status}',
  'trigger.attemptNoAnswer': 'copy {n}: the receiver did not answer: {error}',
  'trigger.notDelivered': 'The receiver did not take it on the first try; the sandbox goes on retrying in the background.',
} as const;

export const ptBR: Record<keyof typeof en, string> = {
  'trigger.which': 'Disparar o resultado de qual contrato?',
  'trigger.whichHint': 'Dê exatamente um de --contract <idContrato> (um contrato que o sandbox em execução emitiu) ou --proposal <idProposta> (o sandbox cria o contrato antes).',
  'trigger.noSandbox': 'Nenhum sandbox em execução foi anunciado em {home}.',
  'trigger.noSandboxHint': 'Inicie um (`econsig sandbox`) com este ECONSIG_HOME, ou dê --sandbox <url> e o token dele em ECONSIG_TOKEN.',
  'trigger.noToken': 'Sem token para o sandbox em {url}.',
  'trigger.noTokenHint': 'Dê em ECONSIG_TOKEN o token que o `econsig sandbox` mostrou.',
  'trigger.unreachable': 'O sandbox em {url} não respondeu: {cause}',
  'trigger.unreachableHint': 'O `econsig sandbox` está rodando lá?',
  'trigger.unauthorized': 'O sandbox em {url} recusou o token.',
  'trigger.unauthorizedHint': 'Use o token que esse sandbox mostrou (ECONSIG_TOKEN), ou o que ele anunciou neste ECONSIG_HOME.',
  'trigger.unknownContract': 'O sandbox em {url} não emitiu o contrato {id}.',
  'trigger.unknownContractHint': 'Use um idContrato que esse sandbox respondeu (`econsig history`), ou --proposal para criar um.',
  'trigger.refused': 'O sandbox em {url} recusou o disparo ({status}): {detail}',
  'trigger.notSandbox': '{url} respondeu {status}, não como um sandbox do econsig responde a um disparo.',
  'trigger.sent': '{outcome} de {contract} (webhook-id {webhookId}) enviado {n} de {times} vezes',
  'trigger.attempt': 'cópia {n}: o receptor respondeu {status}',
  'trigger.attemptNoAnswer': 'cópia {n}: o receptor não respondeu: {error}',
  'trigger.notDelivered': 'O receptor não aceitou na primeira tentativa; o sandbox continua tentando em segundo plano.',
};
