import { describe, expect, it } from 'vitest';
import { fieldOfServiceError, fieldsOfServiceErrors } from '../../../src/domain/service-fields.js';

describe('fieldOfServiceError', () => {
  it.each([
    [{ codigo: 'SVC_P00003', msg: 'Proposta PROP-9 não encontrada.' }, 'idProposta'],
    [{ codigo: 'SVC_B00001', msg: 'contaBancaria.chavePix: a chave Pix não está vinculada ao CPF do trabalhador.' }, 'contaBancaria.chavePix'],
    [{ codigo: 'SVC_B00002', msg: 'a chave não existe' }, 'contaBancaria.chavePix'],
    [{ codigo: 'SVC_V00227', msg: 'pessoa.endereco.cep: deve ter 8 dígitos' }, 'pessoa.endereco.cep'],
    [{ codigo: 'SVC_V00213', msg: 'pessoa.documento.uf: inválida' }, 'pessoa.documento.uf'],
    [{ codigo: 'SVC_C00001', msg: 'O trabalhador já tem um contrato em andamento' }, undefined],
    [{ codigo: 'SVC_X1', msg: 'pessoa.endereco: falta' }, undefined],
  ] as const)('%j names %s', (erro, field) => {
    expect(fieldOfServiceError(erro)).toBe(field);
  });

  it('collects each field once, with the message without its path', () => {
    const fields = fieldsOfServiceErrors([
      { codigo: 'SVC_B00001', msg: 'contaBancaria.chavePix: não vinculada' },
      { codigo: 'SVC_B00002', msg: 'contaBancaria.chavePix: outra' },
      { codigo: 'SVC_C00001', msg: 'em andamento' },
    ]);
    expect([...fields]).toEqual([['contaBancaria.chavePix', 'não vinculada']]);
  });
});
