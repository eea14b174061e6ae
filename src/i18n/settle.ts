/**
 * `settle`: what the operator learned from the provider about a proposal left unknown
 * (flows/settle.ts, ui/settle-output.ts). Part of the one catalogue of i18n/index.ts.
 */
export const en = {
  'settle.contract': 'recorded: proposal {id} has contract {contract} (its submission of {when}); the same file is now reported from the store as accepted, not sent again',
  'settle.notSent': 'recorded: proposal {id} was not sent (its submission of {when}); the next run sends it',
  'settle.nothing': 'nothing to settle: proposal {id} has no unknown submission to {service}',
  'settle.nothingHint': '`econsig history --proposal {id}` shows what the store holds for it; settle records only a submission that is unknown (sent, no answer).',
  'settle.oneOf': 'say what the provider told you: --contract <idContrato> or --not-sent (one of them)',
  'settle.oneOfHint': 'Example: econsig settle {id} --contract 0b6c5f3e-..., or econsig settle {id} --not-sent',
  // The store's record of the answer (English whatever the run's language: history --json's message).
  'settle.recordContract': 'settled by the operator (econsig settle): contract {contract}',
  'settle.recordNotSent': 'settled by the operator (econsig settle): not sent',
} as const;

export const ptBR: Record<keyof typeof en, string> = {
  'settle.contract': 'registrado: a proposta {id} tem o contrato {contract} (envio de {when}); o mesmo arquivo agora é informado pelo registro como aceito, sem novo envio',
  'settle.notSent': 'registrado: a proposta {id} não foi enviada (envio de {when}); a próxima execução a envia',
  'settle.nothing': 'nada a resolver: a proposta {id} não tem envio incerto para {service}',
  'settle.nothingHint': '`econsig history --proposal {id}` mostra o que o registro tem dela; o settle registra apenas um envio incerto (enviado, sem resposta).',
  'settle.oneOf': 'diga o que o provedor informou: --contract <idContrato> ou --not-sent (um dos dois)',
  'settle.oneOfHint': 'Exemplo: econsig settle {id} --contract 0b6c5f3e-..., ou econsig settle {id} --not-sent',
  'settle.recordContract': 'resolvido pelo operador (econsig settle): contrato {contract}',
  'settle.recordNotSent': 'resolvido pelo operador (econsig settle): não enviada',
};
