/** `demo`'s steps and its last words (ui/demo-output.ts). Part of the one catalogue of i18n/index.ts. */
export const en = {
  'demo.step1': 'Validate the bundled example {file} (econsig validate)',
  'demo.step2': 'Start the sandbox (a local simulator of the service) and a webhook listener',
  'demo.step3': 'Submit it and wait for the approval result (econsig submit --wait)',
  'demo.valid': 'valid',
  'demo.invalid': 'invalid',
  'demo.sandbox': 'sandbox  {url}  (temporary token {token}…)',
  'demo.listener': 'listener {url}',
  'demo.complete': 'Demo complete.',
  'demo.next': 'Next:',
  'demo.nextSandbox': '# keep a simulator running',
  'demo.nextSubmit': '# the real job (token: econsig auth login)',
  'demo.failed': 'The demo did not end as expected;',
  'demo.failedWhy': 'the messages above say why.',
} as const;

export const ptBR: Record<keyof typeof en, string> = {
  'demo.step1': 'Validar o exemplo que acompanha o econsig, {file} (econsig validate)',
  'demo.step2': 'Iniciar o sandbox (um simulador local do serviço) e um receptor de webhooks',
  'demo.step3': 'Enviar e aguardar o resultado da aprovação (econsig submit --wait)',
  'demo.valid': 'válido',
  'demo.invalid': 'inválido',
  'demo.sandbox': 'sandbox  {url}  (token temporário {token}…)',
  'demo.listener': 'receptor {url}',
  'demo.complete': 'Demonstração concluída.',
  'demo.next': 'Próximos passos:',
  'demo.nextSandbox': '# mantém um simulador rodando',
  'demo.nextSubmit': '# o trabalho de verdade (token: econsig auth login)',
  'demo.failed': 'A demonstração não terminou como esperado;',
  'demo.failedWhy': 'as mensagens acima dizem por quê.',
};
