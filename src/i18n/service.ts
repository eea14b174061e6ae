/**
 * What econsig says about talking to the service and its token endpoint: the operator's
 * errors and hints built from service/ failures (flows/auth-session.ts). The service layer's own messages (service/errors.ts,
 * service/client.ts) stay English: they are the record (--json `message`, the store) and
 * appear to people only as a cause inside these texts. Part of the one catalogue of
 * i18n/index.ts.
 */
export const en = {
  'service.insecureTokenUrl': 'Refusing to send the client secret over plain http to {url}: use https://, or http:// only to this machine (127.0.0.0/8, ::1, localhost).',
  'service.tokenUrlHint': 'Use an https:// auth.token-url; plain http is allowed only to this machine.',
  'service.tokenRefused': 'The token endpoint refused the client credentials of profile "{profile}": {reason}. Nothing was sent.',
  'service.tokenRefusedClientHint': 'Check the client id and secret: `econsig auth login --client-credentials ...` stores new ones; ECONSIG_CLIENT_SECRET overrides the stored one.',
  'service.tokenRefusedScopeHint': "Check auth.scope and the client's permissions with the provider.",
  'service.noAccessToken': 'No access token: {reason}. Nothing was sent.',
  'service.noAccessTokenHint': 'Check auth.token-url (`econsig config get auth.token-url`) and the network; `econsig doctor` checks each step.',
  'service.untrusted': 'The server {origin} presents a certificate this machine does not trust ({code}). Nothing was sent.',
  'service.untrustedHint': "If it is signed by a private CA (a homologation's), set tls.ca: `econsig config set tls.ca /path/ca.pem`, or ECONSIG_TLS_CA.",
  'service.certRequired': 'The server {origin} demands a client certificate (mTLS) and none is set ({code}). Nothing was sent.',
  'service.certRequiredHint': 'Set tls.cert and tls.key (PEM) or tls.pfx: `econsig config set tls.cert /path/client.pem`, or ECONSIG_TLS_CERT and ECONSIG_TLS_KEY.',
  'service.certRefused': 'The server {origin} refused the client certificate {path} ({setting}; subject {subject}; issuer {issuer}) ({code}). Nothing was sent.',
  'service.certClosed': 'The server {origin} closed the connection during the TLS handshake, most likely refusing the client certificate {path} ({setting}; subject {subject}; issuer {issuer}) ({code}). Nothing was sent.',
  'service.certRefusedHint': 'Use the certificate registered with the provider, signed by a CA it trusts; `econsig auth status` shows the one in use.',
  'service.retryIn': '{what}; retrying in {wait} (attempt {next} of {max})',
  'service.retryRateLimited': '429 too many requests',
  'service.retryNotSent': 'no connection to the service ({code}); nothing was sent',
  'service.dryRunOauth': 'the Authorization header below is a placeholder: an OAuth2 access token is fetched when sending.',
  'service.dryRunNoToken': 'no token: the Authorization header below is a placeholder (econsig auth login).',
} as const;

export const ptBR: Record<keyof typeof en, string> = {
  'service.insecureTokenUrl': 'O segredo do cliente não será enviado por http simples para {url}: use https://, ou http:// só para esta máquina (127.0.0.0/8, ::1, localhost).',
  'service.tokenUrlHint': 'Use uma auth.token-url https://; http simples só é permitido para esta máquina.',
  'service.tokenRefused': 'O emissor de tokens recusou as credenciais de cliente do perfil "{profile}": {reason}. Nada foi enviado.',
  'service.tokenRefusedClientHint': 'Confira o client id e o segredo: `econsig auth login --client-credentials ...` guarda novos; ECONSIG_CLIENT_SECRET prevalece sobre o guardado.',
  'service.tokenRefusedScopeHint': 'Confira auth.scope e as permissões do cliente com o provedor.',
  'service.noAccessToken': 'Sem token de acesso: {reason}. Nada foi enviado.',
  'service.noAccessTokenHint': 'Confira auth.token-url (`econsig config get auth.token-url`) e a rede; `econsig doctor` confere cada etapa.',
  'service.untrusted': 'O servidor {origin} apresenta um certificado em que esta máquina não confia ({code}). Nada foi enviado.',
  'service.untrustedHint': 'Se ele for assinado por uma CA privada (a da homologação), defina tls.ca: `econsig config set tls.ca /caminho/ca.pem`, ou ECONSIG_TLS_CA.',
  'service.certRequired': 'O servidor {origin} exige um certificado de cliente (mTLS) e nenhum está definido ({code}). Nada foi enviado.',
  'service.certRequiredHint': 'Defina tls.cert e tls.key (PEM) ou tls.pfx: `econsig config set tls.cert /caminho/cliente.pem`, ou ECONSIG_TLS_CERT e ECONSIG_TLS_KEY.',
  'service.certRefused': 'O servidor {origin} recusou o certificado de cliente {path} ({setting}; titular {subject}; emissor {issuer}) ({code}). Nada foi enviado.',
  'service.certClosed': 'O servidor {origin} fechou a conexão durante a negociação TLS, muito provavelmente recusando o certificado de cliente {path} ({setting}; titular {subject}; emissor {issuer}) ({code}). Nada foi enviado.',
  'service.certRefusedHint': 'Use o certificado registrado no provedor, assinado por uma CA em que ele confia; `econsig auth status` mostra o que está em uso.',
  'service.retryIn': '{what}; nova tentativa em {wait} (tentativa {next} de {max})',
  'service.retryRateLimited': '429 requisições demais',
  'service.retryNotSent': 'sem conexão com o serviço ({code}); nada foi enviado',
  'service.dryRunOauth': 'o cabeçalho Authorization abaixo é provisório: um token de acesso OAuth2 é obtido na hora do envio.',
  'service.dryRunNoToken': 'sem token: o cabeçalho Authorization abaixo é provisório (econsig auth login).',
};
