/**
 * The wizard's words in English and Brazilian Portuguese. Field names stay as the service
 * names them (docs/service.md 2); only labels, choices and guidance are translated. The rule
 * messages come from the domain in the wizard's language (i18n/rules.ts).
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

/** The key help under a list, when the prompts' own English one will not do. */
export function listHelp(lang: WizardLang): string | undefined {
  return lang === 'pt-BR' ? '↑↓ navegar • ⏎ selecionar' : undefined;
}
