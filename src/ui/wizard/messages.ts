/**
 * The wizard's words in English and Brazilian Portuguese. Field names stay as the service
 * names them (docs/service.md 2); only labels, choices and guidance are translated. The rule
 * messages come from the zod schemas in English; the common ones are translated here by
 * pattern, any other one is shown as it is.
 */
import type { EstadoCivil, FieldPath } from '../../domain/submission.js';

export type WizardLang = 'pt-BR' | 'en';
export type SectionId = 'proposal' | 'personal' | 'document' | 'address' | 'marital' | 'payout';
export type PayoutMode = 'pix' | 'bank' | 'both';
export type MenuAction = 'submit' | 'edit' | 'reveal' | 'save' | 'quit';

type Pair = readonly [en: string, pt: string];

const pick = (lang: WizardLang, pair: Pair): string => (lang === 'pt-BR' ? pair[1] : pair[0]);

/** Short label (summary) and the guidance added when asking. */
const FIELD_LABELS: Record<FieldPath, { label: Pair; help?: Pair }> = {
  idProposta: { label: ['Proposal id', 'Id da proposta'], help: ['e.g. PROP-1001', 'ex.: PROP-1001'] },
  'pessoa.naturalidade': { label: ['City of birth', 'Naturalidade'], help: ['', '(cidade de nascimento)'] },
  'pessoa.email': { label: ['E-mail', 'E-mail'] },
  'pessoa.telefone': { label: ['Phone', 'Telefone'], help: ['with area code, e.g. (11) 91234-5678', 'com DDD, ex.: (11) 91234-5678'] },
  'pessoa.documento.tipoDocumento': { label: ['Document type', 'Tipo de documento'] },
  'pessoa.documento.numero': { label: ['Document number', 'Número do documento'] },
  'pessoa.documento.orgaoExpedidor': { label: ['Issuing body', 'Órgão expedidor'], help: ['e.g. SSP, DETRAN', 'ex.: SSP, DETRAN'] },
  'pessoa.documento.uf': { label: ['State of issue', 'UF de emissão'] },
  'pessoa.documento.dataDeEmissao': { label: ['Issue date', 'Data de emissão'], help: ['DD/MM/YYYY', 'DD/MM/AAAA'] },
  'pessoa.endereco.rua': { label: ['Street', 'Logradouro'], help: ['street, avenue...', 'rua, avenida...'] },
  'pessoa.endereco.numero': { label: ['Number', 'Número'], help: ['s/n when there is none', 's/n se não houver'] },
  'pessoa.endereco.complemento': { label: ['Complement', 'Complemento'], help: ['optional: Enter to skip', 'opcional: Enter para pular'] },
  'pessoa.endereco.bairro': { label: ['Neighbourhood', 'Bairro'] },
  'pessoa.endereco.cidade': { label: ['City', 'Cidade'] },
  'pessoa.endereco.uf': { label: ['State', 'UF'] },
  'pessoa.endereco.cep': { label: ['CEP', 'CEP'], help: ['8 digits, hyphen optional', '8 dígitos, com ou sem hífen'] },
  'pessoa.estadoCivil': { label: ['Marital status', 'Estado civil'] },
  'contaBancaria.compe': { label: ['Bank code', 'Código do banco'], help: ['COMPE, 3 digits, e.g. 341', 'COMPE, 3 dígitos, ex.: 341'] },
  'contaBancaria.agencia': { label: ['Branch', 'Agência'], help: ['without check digit', 'sem dígito'] },
  'contaBancaria.conta': { label: ['Account', 'Conta'], help: ['with check digit, e.g. 12345-6', 'com dígito, ex.: 12345-6'] },
  'contaBancaria.tipo': { label: ['Account type', 'Tipo de conta'] },
  'contaBancaria.chavePix': {
    label: ['Pix key', 'Chave Pix'],
    help: ['CPF, e-mail, mobile or random key', 'CPF, e-mail, celular ou chave aleatória'],
  },
};

export function fieldLabel(lang: WizardLang, path: FieldPath): string {
  return pick(lang, FIELD_LABELS[path].label);
}

/** The question for a field: its label, then the guidance in brackets. */
export function fieldQuestion(lang: WizardLang, path: FieldPath): string {
  const { label, help } = FIELD_LABELS[path];
  const extra = help ? pick(lang, help) : '';
  return extra ? `${pick(lang, label)} (${extra.replace(/^\((.*)\)$/, '$1')}):` : `${pick(lang, label)}:`;
}

const SECTION_TITLES: Record<SectionId, Pair> = {
  proposal: ['Proposal', 'Proposta'],
  personal: ['Personal data', 'Dados pessoais'],
  document: ['Identity document', 'Documento de identidade'],
  address: ['Address', 'Endereço'],
  marital: ['Marital status', 'Estado civil'],
  payout: ['Payout', 'Dados para pagamento'],
};

export function sectionTitle(lang: WizardLang, id: SectionId): string {
  return pick(lang, SECTION_TITLES[id]);
}

const ESTADO_CIVIL_LABELS: Record<EstadoCivil, Pair> = {
  SOLTEIRO: ['Single', 'Solteiro(a)'],
  CASADO: ['Married', 'Casado(a)'],
  DIVORCIADO: ['Divorced', 'Divorciado(a)'],
  VIUVO: ['Widowed', 'Viúvo(a)'],
  SEPARADO: ['Separated', 'Separado(a)'],
  UNIAO_ESTAVEL: ['Stable union', 'União estável'],
  SEPARADO_JUDICIALMENTE: ['Legally separated', 'Separado(a) judicialmente'],
  NAO_INFORMADO: ['Not stated', 'Não informado'],
  OUTROS: ['Other', 'Outros'],
};

const CHOICE_LABELS: Record<string, Pair> = {
  RG: ['RG (identity card)', 'RG (carteira de identidade)'],
  CNH: ["CNH (driver's licence)", 'CNH (carteira de motorista)'],
  CORRENTE: ['Checking account', 'Conta corrente'],
  POUPANCA: ['Savings account', 'Conta poupança'],
};

/** Readable label of a choice value (marital status, document or account type). */
export function choiceLabel(lang: WizardLang, value: string): string {
  const pair = ESTADO_CIVIL_LABELS[value as EstadoCivil] ?? CHOICE_LABELS[value];
  return pair ? pick(lang, pair) : value;
}

const PAYOUT_LABELS: Record<PayoutMode, { name: Pair; description: Pair }> = {
  pix: { name: ['Pix key', 'Chave Pix'], description: ['paid to the account linked to the key', 'pago na conta vinculada à chave'] },
  bank: { name: ['Bank account', 'Conta bancária'], description: ['bank code, branch, account and type', 'banco, agência, conta e tipo'] },
  both: {
    name: ['Both', 'Ambos'],
    description: [
      "the Pix key's bank data win over the account typed",
      'os dados bancários da chave Pix prevalecem sobre a conta digitada',
    ],
  },
};

export function payoutLabel(lang: WizardLang, mode: PayoutMode): { name: string; description: string } {
  return { name: pick(lang, PAYOUT_LABELS[mode].name), description: pick(lang, PAYOUT_LABELS[mode].description) };
}

export const TEXT = {
  intro: [
    'New submission. Answers are checked as you type; Ctrl-C leaves and keeps what was entered in a draft file.',
    'Nova submissão. As respostas são conferidas ao digitar; Ctrl-C sai e guarda o que foi digitado em um rascunho.',
  ],
  prefilled: ['Loaded from the file: {n} fields; asking only for the rest.', 'Carregado do arquivo: {n} campos; só o que falta será perguntado.'],
  refusedRejected: ['The service refused the submission ({status}): see its reasons above.', 'O serviço recusou a submissão ({status}): veja os motivos acima.'],
  refusedNotFound: ['The service does not know proposal {id} (404): check the proposal id.', 'O serviço não conhece a proposta {id} (404): confira o id da proposta.'],
  refusedUnauthorized: [
    'The service refused the token (401). Log in again in another terminal (econsig auth login), then try again.',
    'O serviço recusou o token (401). Entre de novo em outro terminal (econsig auth login) e tente de novo.',
  ],
  refusedUnavailable: ['The service could not be reached; nothing was sent.', 'Não foi possível falar com o serviço; nada foi enviado.'],
  refusedRateLimited: ['The service is busy (429); nothing was created. Try again in a moment.', 'O serviço está ocupado (429); nada foi criado. Tente de novo em instantes.'],
  refusedUnknown: [
    'No answer came after sending: the contract may exist. Check with econsig history before sending again.',
    'Nenhuma resposta depois do envio: o contrato pode existir. Confira com econsig history antes de enviar de novo.',
  ],
  refusedSkipped: [
    'Not sent: this proposal already has a submission in progress or unanswered (econsig history).',
    'Não enviada: esta proposta já tem um envio em andamento ou sem resposta (econsig history).',
  ],
  refusedOther: ['Not accepted ({outcome}).', 'Não aceita ({outcome}).'],
  afterFix: ['Correct {fields} and send again', 'Corrigir {fields} e enviar de novo'],
  afterEdit: ['Review the submission and send again', 'Revisar a submissão e enviar de novo'],
  afterRetry: ['Send again as it is', 'Enviar de novo como está'],
  afterLeave: ['Leave (a draft is kept)', 'Sair (um rascunho é guardado)'],
  draftKept: [
    'Not sent. What was entered is saved in {path} (continue with: econsig submit -i --file {path}).',
    'Não enviada. O que foi digitado está salvo em {path} (para continuar: econsig submit -i --file {path}).',
  ],
  noToken: [
    'No token for profile "{profile}": nothing could be sent, so no question is asked.',
    'Não há token para o perfil "{profile}": nada poderia ser enviado, então nenhuma pergunta é feita.',
  ],
  noTokenHint: [
    'Log in first: econsig auth login{flag} (or set ECONSIG_TOKEN). To fill the form now and send later: econsig submit --save <file>.',
    'Entre primeiro: econsig auth login{flag} (ou defina ECONSIG_TOKEN). Para preencher agora e enviar depois: econsig submit --save <arquivo>.',
  ],
  fixIntro: ['Correcting what the service refused; everything else is kept.', 'Corrigindo o que o serviço recusou; o resto é mantido.'],
  serviceRefusedField: ['The service refused {field}: {message}', 'O serviço recusou {field}: {message}'],
  prefillRejected: ['From the file, {field} was not accepted: {message}', 'Do arquivo, {field} não foi aceito: {message}'],
  required: ['is required', 'é obrigatório'],
  payoutQuestion: ['How will the worker be paid?', 'Como o trabalhador vai receber?'],
  bothNote: [
    "Note: with both, the service pays to the account linked to the Pix key; the bank data typed are replaced by the key's.",
    'Atenção: com ambos, o serviço paga na conta vinculada à chave Pix; os dados bancários digitados são substituídos pelos da chave.',
  ],
  ufSearch: ['type to search', 'digite para buscar'],
  sectionErrors: ['{section}: please correct:', '{section}: corrija:'],
  summaryTitle: ['Summary of the submission', 'Resumo da submissão'],
  payoutMode: ['Payout by', 'Forma'],
  warnings: ['Check:', 'Confira:'],
  menu: ['What now?', 'E agora?'],
  menuSubmit: ['Submit', 'Enviar'],
  menuEdit: ['Edit a section', 'Corrigir uma seção'],
  menuSave: ['Save to a file and leave', 'Salvar em arquivo e sair'],
  menuQuit: ['Quit without sending', 'Sair sem enviar'],
  menuReveal: ['Show the hidden digits (to check against the paper form)', 'Mostrar os dígitos ocultos (para conferir com o papel)'],
  menuHide: ['Hide the digits again', 'Ocultar os dígitos de novo'],
  quitConfirm: ['Quit without sending? What was entered is not kept.', 'Sair sem enviar? O que foi digitado não será guardado.'],
  enterToKeep: ['(Enter again to keep it)', '(Enter de novo para manter)'],
  bankNotListed: ['(not in the list of banks: check it)', '(fora da lista de bancos: confira)'],
  editBack: ['← Back to the summary', '← Voltar ao resumo'],
  editWhich: ['Which section?', 'Qual seção?'],
  savePath: ['File to save to:', 'Arquivo para salvar:'],
  overwrite: ['{path} exists. Replace it?', '{path} já existe. Substituir?'],
  saved: ['Saved to {path} (continue with: econsig submit -i --file {path}).', 'Salvo em {path} (para continuar: econsig submit -i --file {path}).'],
  cancelled: ['Cancelled; nothing was sent.', 'Cancelado; nada foi enviado.'],
  cancelledSaved: [
    'Cancelled; nothing was sent. What was entered is saved in {path} (continue with: econsig submit -i --file {path}).',
    'Cancelado; nada foi enviado. O que foi digitado está salvo em {path} (para continuar: econsig submit -i --file {path}).',
  ],
  draftFailed: ['Could not save a draft in {dir} ({cause}); here is what was entered:', 'Não foi possível salvar o rascunho em {dir} ({cause}); eis o que foi digitado:'],
  noTerminal: [
    'The wizard needs a terminal, and this run has none (CI, a pipe, or --json).',
    'O assistente precisa de um terminal, e esta execução não tem (CI, pipe ou --json).',
  ],
  noTerminalHint: [
    'Pass the submission as a file: econsig submit --file proposal.json (econsig schema shows its format).',
    'Passe a submissão em um arquivo: econsig submit --file proposta.json (econsig schema mostra o formato).',
  ],
} satisfies Record<string, Pair>;

export type TextKey = keyof typeof TEXT;

/** A UI string with `{name}` placeholders filled. */
export function t(lang: WizardLang, key: TextKey, values: Record<string, string | number> = {}): string {
  return pick(lang, TEXT[key]).replace(/\{(\w+)\}/g, (whole, name: string) =>
    values[name] === undefined ? whole : String(values[name]),
  );
}

// The rule messages of domain/submission.ts, domain/brazil.ts and domain/rules.ts most often
// met at the desk. Anything not listed is shown in English, as the schema words it.
const RULE_MESSAGES_PT: ReadonlyArray<readonly [RegExp, string]> = [
  [/^must not be empty: send "0" when the property has no number$/, 'não pode ficar vazio: use s/n (enviado como "0") se o imóvel não tiver número'],
  [/^must not be empty: .*?, e\.g\. (".*")$/, 'não pode ficar vazio, ex.: $1'],
  [/^must be (\d+) digits, e\.g\. (".*")$/, 'deve ter $1 dígitos, ex.: $2'],
  [/^"00000000" is not a real CEP$/, '"00000000" não é um CEP real'],
  [/^is not a valid e-mail address, e\.g\. (".*")$/, 'não é um e-mail válido, ex.: $1'],
  [/^must be a date as YYYY-MM-DD \(or DD\/MM\/YYYY\).*$/, 'deve ser uma data DD/MM/AAAA, ex.: 21/03/2015'],
  [/^(".*") is not a real calendar date$/, '$1 não é uma data do calendário'],
  [/^is in the future \((.*); today is (.*)\).*$/, 'está no futuro ($1; hoje é $2): use a data impressa no documento'],
  [/^must be 1 to 14 letters or digits.*$/, 'deve ter de 1 a 14 letras ou dígitos, sem pontos, hífens ou espaços, ex.: "123456789"'],
  [/^a CNH number has 11 digits.*$/, 'o número da CNH tem 11 dígitos, ex.: "00000000119"'],
  [/^is not a valid CNH number.*$/, 'não é um número de CNH válido (os dígitos verificadores não conferem)'],
  [/^looks like a RENACH number.*$/, 'parece um número RENACH; a CNH é enviada pelo número de registro, de 11 dígitos'],
  [/^must be the 3-digit bank code.*$/, 'deve ser o código do banco com 3 dígitos, ex.: "341" (Itaú) ou "001"'],
  [/^must be the branch number.*$/, 'deve ser a agência com 4 dígitos, sem o dígito, ex.: "0123"'],
  [/^must be at most 17 characters.*$/, 'deve ter no máximo 17 caracteres, com o dígito'],
  [/^must be digits, a hyphen and a 1-digit check digit.*$/, 'deve ter dígitos, hífen e 1 dígito verificador, ex.: "12345-6" (dígito X não pode ser enviado)'],
  [/^area code (\d+) does not exist in Brazil, e\.g\. (".*")$/, 'o DDD $1 não existe no Brasil, ex.: $2'],
  [/^a 9-digit number must be a mobile starting with 9.*$/, 'um número de 9 dígitos deve ser celular, começando com 9'],
  [/^must have \+55, a 2-digit area code and an 8- or 9-digit number.*$/, 'deve ter +55, o DDD com 2 dígitos e o número com 8 ou 9 dígitos'],
  [/^must be "\+" followed by digits only.*$/, 'deve ser "+" seguido só de dígitos, ex.: "+5511987654321"'],
  [/^is 11 digits but not a valid CPF.*$/, 'tem 11 dígitos mas não é um CPF válido (os dígitos verificadores não conferem)'],
  [/^is not a valid e-mail key.*$/, 'não é uma chave e-mail válida, ex.: "maria@example.com"'],
  [/^a phone key must be a Brazilian mobile.*$/, 'a chave celular deve ser um celular brasileiro: +55, DDD e 9 dígitos começando com 9'],
  [/^both bank data and a Pix key were given.*$/, 'dados bancários e chave Pix informados: o serviço substitui os dados bancários pela conta vinculada à chave'],
  [/^CEP (\d+) is outside the postal range of (\w+).*$/, 'o CEP $1 está fora da faixa postal de $2; confira o CEP e a UF'],
  [/^bank code (\d+) is not in the list of STR participants.*$/, 'o código de banco $1 não está na lista de participantes do STR; confira'],
  [/^an 8-digit number must be a landline starting with 2 to 5.*$/, 'um número de 8 dígitos deve ser fixo, começando com 2 a 5 (celulares têm 9 dígitos)'],
  [/^is not a Pix key.*$/, 'não é uma chave Pix: use um e-mail, um celular "+5511987654321", um CPF "52998224725" ou uma chave aleatória (UUID)'],
  [/^must be one of (.*?) \(got (.*?)\)(.*)$/, 'deve ser um de $1 (recebido $2)'],
];

/** A rule message in the wizard's language (English ones pass through). */
export function ruleMessage(lang: WizardLang, message: string): string {
  if (lang !== 'pt-BR') return message;
  for (const [pattern, replacement] of RULE_MESSAGES_PT) {
    if (pattern.test(message)) return message.replace(pattern, replacement);
  }
  return message;
}

const NOTES_PT: ReadonlyArray<readonly [string, string]> = [
  ['spaces, brackets and hyphens removed', 'espaços, parênteses e hífens removidos'],
  ['surrounding spaces trimmed', 'espaços nas pontas removidos'],
  ['accents composed (Unicode NFC)', 'acentos normalizados'],
  ['zero-padded to 4 digits', 'completado com zeros até 4 dígitos'],
  ['DD/MM/YYYY rewritten as YYYY-MM-DD', 'data enviada como AAAA-MM-DD'],
  ['"no number" sent as "0"', '"sem número" enviado como "0"'],
  ['CEP stripped of punctuation', 'CEP sem pontuação'],
  ['document number stripped of punctuation', 'número sem pontuação'],
  ['CPF key stripped of punctuation', 'chave CPF sem pontuação'],
  ['e-mail key lower-cased', 'chave e-mail em minúsculas'],
  ['upper-cased', 'em maiúsculas'],
  ['+55 added', '+55 incluído'],
  ['phone key: ', 'chave celular: '],
];

/** A normalisation note (domain/normalize.ts) in the wizard's language. */
export function noteMessage(lang: WizardLang, note: string): string {
  if (lang !== 'pt-BR') return note;
  return NOTES_PT.reduce((text, [en, pt]) => text.replace(en, pt), note);
}

/** The key help under a list, when the prompts' own English one will not do. */
export function listHelp(lang: WizardLang): string | undefined {
  return lang === 'pt-BR' ? '↑↓ navegar • ⏎ selecionar' : undefined;
}
