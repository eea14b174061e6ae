/**
 * Client certificates and a receiver's own certificate: the profile's TLS files
 * (settings/tls-files.ts) and `watch --tls-cert/--tls-key` (webhook/tls.ts). The TLS library's
 * reason (OpenSSL's words) stays as it is, inside these texts. Part of the one catalogue of
 * i18n/index.ts.
 */
export const en = {
  'tls.cannotRead': 'Cannot read {what} file {path}: {code}.',
  'tls.cannotReadHint': 'Check the path (`econsig config get {setting}`) and that you may read the file.',
  'tls.shared': '{what} {path} can be read by other users (mode {mode}); run: chmod 600 {path}',
  'tls.pfxAndPem': 'Both {pfx} and {other} are set.',
  'tls.pfxAndPemHint': 'Use either tls.pfx (PKCS#12) or tls.cert with tls.key, not both: `econsig config unset ...`.',
  'tls.halfPair': '{given} is set but {missing} is not.',
  'tls.halfPairHint': 'A client certificate needs its private key: set both, e.g. `econsig config set tls.key /path/client.key`.',
  'tls.notPem': '{setting} {path} is not a PEM certificate.',
  'tls.notPemHint': 'Give the client certificate in PEM form (-----BEGIN CERTIFICATE-----).',
  'tls.pairMismatch': '{certSetting} {certPath} and {keySetting} {keyPath} cannot be used together: {reason}.',
  'tls.pairMismatchHint': 'Check that the key is the PEM private key of that certificate, without a passphrase.',
  'tls.pfxUnopened': 'Cannot open the PKCS#12 bundle {path} ({setting}): {reason}.',
  'tls.pfxNoPassphraseHint': 'Set its passphrase in ECONSIG_TLS_PASSPHRASE.',
  'tls.pfxWrongPassphraseHint': 'Check ECONSIG_TLS_PASSPHRASE: it does not open this bundle.',
  'tls.caNotPem': '{setting} {path} is not a PEM certificate bundle.',
  'tls.caNotPemHint': 'Give the CA certificate(s) in PEM form.',
  'tls.expired': 'The client certificate {path} ({setting}, {subject}) has expired: valid from {from} to {to}. Nothing was sent.',
  'tls.expiredHint': 'Get a renewed certificate from the provider and point tls.cert/tls.key (or tls.pfx) at it.',
  'tls.notYetValid': 'The client certificate {path} ({setting}, {subject}) is not valid yet: valid from {from} to {to}. Nothing was sent.',
  'tls.notYetValidHint': "Check this machine's clock, or wait until the certificate's start date.",
  // webhook/tls.ts: watch --tls-cert / --tls-key
  'tls.needsBoth': '{given} needs {missing} too.',
  'tls.needsBothHint': 'Give both: --tls-cert cert.pem --tls-key key.pem.',
  'tls.serverCannotRead': 'Cannot read {flag} {path}{code}.',
  'tls.serverCannotReadHint': 'Check the path and that this user may read it.',
  'tls.serverMismatch': '--tls-cert {cert} and --tls-key {key} cannot be used together: {reason}.',
  'tls.serverMismatchHint': 'Both must be PEM files, the key the one of that certificate (unencrypted).',
} as const;

export const ptBR: Record<keyof typeof en, string> = {
  'tls.cannotRead': 'Não foi possível ler o arquivo de {what} {path}: {code}.',
  'tls.cannotReadHint': 'Confira o caminho (`econsig config get {setting}`) e se você pode ler o arquivo.',
  'tls.shared': '{what} {path} pode ser lido por outros usuários (modo {mode}); rode: chmod 600 {path}',
  'tls.pfxAndPem': '{pfx} e {other} estão definidos ao mesmo tempo.',
  'tls.pfxAndPemHint': 'Use tls.pfx (PKCS#12) ou tls.cert com tls.key, não os dois: `econsig config unset ...`.',
  'tls.halfPair': '{given} está definido, mas {missing} não.',
  'tls.halfPairHint': 'Um certificado de cliente precisa da sua chave privada: defina os dois, por exemplo `econsig config set tls.key /caminho/cliente.key`.',
  'tls.notPem': '{setting} {path} não é um certificado PEM.',
  'tls.notPemHint': 'Informe o certificado do cliente em formato PEM (-----BEGIN CERTIFICATE-----).',
  'tls.pairMismatch': '{certSetting} {certPath} e {keySetting} {keyPath} não podem ser usados juntos: {reason}.',
  'tls.pairMismatchHint': 'Confira se a chave é a chave privada PEM desse certificado, sem senha.',
  'tls.pfxUnopened': 'Não foi possível abrir o pacote PKCS#12 {path} ({setting}): {reason}.',
  'tls.pfxNoPassphraseHint': 'Informe a senha dele em ECONSIG_TLS_PASSPHRASE.',
  'tls.pfxWrongPassphraseHint': 'Confira ECONSIG_TLS_PASSPHRASE: ela não abre este pacote.',
  'tls.caNotPem': '{setting} {path} não é um pacote de certificados PEM.',
  'tls.caNotPemHint': 'Informe o(s) certificado(s) da CA em formato PEM.',
  'tls.expired': 'O certificado de cliente {path} ({setting}, {subject}) expirou: válido de {from} a {to}. Nada foi enviado.',
  'tls.expiredHint': 'Peça ao provedor um certificado renovado e aponte tls.cert/tls.key (ou tls.pfx) para ele.',
  'tls.notYetValid': 'O certificado de cliente {path} ({setting}, {subject}) ainda não é válido: válido de {from} a {to}. Nada foi enviado.',
  'tls.notYetValidHint': 'Confira o relógio desta máquina, ou aguarde a data de início do certificado.',
  'tls.needsBoth': '{given} precisa também de {missing}.',
  'tls.needsBothHint': 'Informe os dois: --tls-cert cert.pem --tls-key chave.pem.',
  'tls.serverCannotRead': 'Não foi possível ler {flag} {path}{code}.',
  'tls.serverCannotReadHint': 'Confira o caminho e se este usuário pode lê-lo.',
  'tls.serverMismatch': '--tls-cert {cert} e --tls-key {key} não podem ser usados juntos: {reason}.',
  'tls.serverMismatchHint': 'Os dois devem ser arquivos PEM, e a chave deve ser a desse certificado (sem senha).',
};
