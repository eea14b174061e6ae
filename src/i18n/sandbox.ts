/**
 * `econsig sandbox`'s lines for people (the banner on starting and the line on stopping);
 * its log lines, one per request and webhook attempt, are key=value data and stay as they
 * are. Part of the one catalogue of i18n/index.ts.
 */
export const en = {
  'sandbox.listening': 'econsig sandbox listening on {url} token {token}',
  'sandbox.listeningOauth': 'econsig sandbox listening on {url} token_url {tokenUrl} client_id {clientId} client_secret {clientSecret}',
  'sandbox.endpoint': '  endpoint: POST {endpoint}',
  'sandbox.results': '  results:  {url} after {seconds}s{signed}',
  'sandbox.signed': ', signed',
  'sandbox.noWebhook': '(no webhook URL)',
  'sandbox.oauth': '  oauth:    POST {tokenUrl} (client credentials, tokens live {seconds}s)',
  'sandbox.tryConfig': '  try:      econsig config set base-url {url}',
  'sandbox.tryLogin': '            econsig auth login --client-credentials --token-url {tokenUrl} --client-id {clientId}   (paste the secret above)',
  'sandbox.tryCurl': '  try:      {curl}',
  'sandbox.mtls': '  mTLS:     a client certificate signed by {ca} is required',
  'sandbox.stopHint': '  Ctrl-C to stop.',
  'sandbox.stopped': 'econsig sandbox stopped; {n} webhook result(s) not delivered{list}',
} as const;

export const ptBR: Record<keyof typeof en, string> = {
  'sandbox.listening': 'econsig sandbox escutando em {url} token {token}',
  'sandbox.listeningOauth': 'econsig sandbox escutando em {url} token_url {tokenUrl} client_id {clientId} client_secret {clientSecret}',
  'sandbox.endpoint': '  endpoint:   POST {endpoint}',
  'sandbox.results': '  resultados: {url} depois de {seconds}s{signed}',
  'sandbox.signed': ', assinados',
  'sandbox.noWebhook': '(sem URL de webhook)',
  'sandbox.oauth': '  oauth:      POST {tokenUrl} (client credentials, tokens valem {seconds}s)',
  'sandbox.tryConfig': '  experimente: econsig config set base-url {url}',
  'sandbox.tryLogin': '              econsig auth login --client-credentials --token-url {tokenUrl} --client-id {clientId}   (cole o segredo acima)',
  'sandbox.tryCurl': '  experimente: {curl}',
  'sandbox.mtls': '  mTLS:       exige um certificado de cliente assinado por {ca}',
  'sandbox.stopHint': '  Ctrl-C para parar.',
  'sandbox.stopped': 'econsig sandbox parado; {n} resultado(s) de webhook não entregue(s){list}',
};
