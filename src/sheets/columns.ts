/**
 * The columns of a submission sheet: one per leaf field of the submission (every field is
 * text), with the labels the template writes in Portuguese and English, a few other names
 * people use, an example and the allowed values. Headers are matched folded (case,
 * accents, spaces and punctuation ignored), so `CEP`, `cep ` and `pessoa.endereco.cep`
 * name the same column.
 */
import { UFS } from '../domain/brazil.js';
import { ESTADOS_CIVIS, type FieldPath, TIPOS_CONTA, TIPOS_DOCUMENTO } from '../domain/submission.js';
import type { Lang } from '../i18n/index.js';

export interface SheetColumn {
  path: FieldPath;
  pt: string;
  en: string;
  /** Other headers people write for this field (folded when matched). */
  aliases: readonly string[];
  example: string;
  /** For the template's explanation and its validation lists. */
  allowed?: readonly string[];
  /** A fixed number of digits: a number cell that lost its leading zeros gets them back. */
  digits?: number;
  /** Required in every row (bank data and the Pix key are an either/or, checked per row). */
  required: boolean;
}

export const SHEET_COLUMNS: readonly SheetColumn[] = [
  { path: 'idProposta', pt: 'Id da proposta', en: 'Proposal id', aliases: ['proposta', 'id proposta'], example: 'PROP-1001', required: true },
  { path: 'pessoa.naturalidade', pt: 'Naturalidade', en: 'City of birth', aliases: [], example: 'São Paulo', required: true },
  { path: 'pessoa.estadoCivil', pt: 'Estado civil', en: 'Marital status', aliases: [], example: 'CASADO', allowed: ESTADOS_CIVIS, required: true },
  { path: 'pessoa.email', pt: 'E-mail', en: 'Email', aliases: ['email do trabalhador'], example: 'maria@example.com', required: true },
  { path: 'pessoa.telefone', pt: 'Telefone', en: 'Phone', aliases: ['celular'], example: '+5511987654321', required: true },
  { path: 'pessoa.documento.tipoDocumento', pt: 'Tipo de documento', en: 'Document type', aliases: [], example: 'RG', allowed: TIPOS_DOCUMENTO, required: true },
  { path: 'pessoa.documento.numero', pt: 'Número do documento', en: 'Document number', aliases: ['documento'], example: '123456789', required: true },
  { path: 'pessoa.documento.orgaoExpedidor', pt: 'Órgão expedidor', en: 'Issuing body', aliases: ['orgao emissor'], example: 'SSP', required: true },
  { path: 'pessoa.documento.uf', pt: 'UF do documento', en: 'Document state', aliases: ['uf de emissao', 'uf emissao'], example: 'SP', allowed: UFS, required: true },
  { path: 'pessoa.documento.dataDeEmissao', pt: 'Data de emissão', en: 'Issue date', aliases: [], example: '2015-03-21', required: true },
  { path: 'pessoa.endereco.rua', pt: 'Logradouro', en: 'Street', aliases: ['rua', 'endereco'], example: 'Avenida Paulista', required: true },
  { path: 'pessoa.endereco.numero', pt: 'Número', en: 'Number', aliases: ['numero do endereco', 'street number'], example: '1578', required: true },
  { path: 'pessoa.endereco.complemento', pt: 'Complemento', en: 'Complement', aliases: [], example: 'Apto 12', required: false },
  { path: 'pessoa.endereco.bairro', pt: 'Bairro', en: 'Neighbourhood', aliases: ['neighborhood', 'district'], example: 'Bela Vista', required: true },
  { path: 'pessoa.endereco.cidade', pt: 'Cidade', en: 'City', aliases: ['municipio'], example: 'São Paulo', required: true },
  { path: 'pessoa.endereco.uf', pt: 'UF', en: 'State', aliases: ['estado'], example: 'SP', allowed: UFS, required: true },
  { path: 'pessoa.endereco.cep', pt: 'CEP', en: 'Postal code', aliases: ['zip', 'zip code'], example: '01310100', digits: 8, required: true },
  { path: 'contaBancaria.compe', pt: 'Código do banco', en: 'Bank code', aliases: ['compe', 'banco'], example: '341', digits: 3, required: false },
  { path: 'contaBancaria.agencia', pt: 'Agência', en: 'Branch', aliases: [], example: '0123', digits: 4, required: false },
  { path: 'contaBancaria.conta', pt: 'Conta', en: 'Account', aliases: ['numero da conta'], example: '12345-6', required: false },
  { path: 'contaBancaria.tipo', pt: 'Tipo de conta', en: 'Account type', aliases: [], example: 'CORRENTE', allowed: TIPOS_CONTA, required: false },
  { path: 'contaBancaria.chavePix', pt: 'Chave Pix', en: 'Pix key', aliases: ['pix'], example: 'maria@example.com', required: false },
];

export const BANK_COLUMNS: readonly FieldPath[] = ['contaBancaria.compe', 'contaBancaria.agencia', 'contaBancaria.conta', 'contaBancaria.tipo'];

/** A header folded for matching: no accents, no case, nothing but letters and digits. */
export function foldHeader(header: string): string {
  return header
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** Every accepted header, folded, and its column. */
const byFolded = new Map<string, SheetColumn>();
for (const column of SHEET_COLUMNS) {
  for (const name of [column.path, column.pt, column.en, ...column.aliases]) byFolded.set(foldHeader(name), column);
  // The last part of the path, where it names one field only (`cep`, `agencia`, `chavePix`).
  const leaf = column.path.split('.').pop() as string;
  if (SHEET_COLUMNS.filter((c) => c.path.endsWith(`.${leaf}`) || c.path === leaf).length === 1) byFolded.set(foldHeader(leaf), column);
}

/** The column a header names, if any. */
export function columnOfHeader(header: string): SheetColumn | undefined {
  return byFolded.get(foldHeader(header));
}

/** The headers "did you mean" chooses from: the labels in the given language first, then the other's, then the paths. */
export function knownHeaders(lang: Lang): string[] {
  const first = SHEET_COLUMNS.map((c) => (lang === 'pt-BR' ? c.pt : c.en));
  const second = SHEET_COLUMNS.map((c) => (lang === 'pt-BR' ? c.en : c.pt));
  return [...first, ...second, ...SHEET_COLUMNS.map((c) => c.path)];
}

export function columnLabel(column: SheetColumn, lang: Lang): string {
  return lang === 'pt-BR' ? column.pt : column.en;
}
