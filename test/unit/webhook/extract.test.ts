import { describe, expect, it } from 'vitest';
import { extractResult, getPath, mapStatus, type ExtractedResult, type ExtractOptions } from '../../../src/webhook/extract.js';

const U = '3f1c2a9e-8d4b-4c55-9a51-0d2c6b7e1f00';

const shapes: { name: string; payload: unknown; options?: ExtractOptions; want: Partial<ExtractedResult> }[] = [
  {
    name: 'sandbox approved',
    payload: { evento: 'RESULTADO_PROPOSTA', idContrato: U, idProposta: 'PROP-1001', status: 'APROVADO', motivo: null, dataHora: '2026-01-01T00:00:00Z' },
    want: { idContrato: U, idProposta: 'PROP-1001', status: 'APROVADO', outcome: 'approved', reason: null },
  },
  {
    name: 'sandbox denied with a string motivo',
    payload: { evento: 'RESULTADO_PROPOSTA', idContrato: U, idProposta: 'PROP-2', status: 'REPROVADO', motivo: 'Margem consignável insuficiente', dataHora: '2026-01-01T00:00:00Z' },
    want: { idContrato: U, status: 'REPROVADO', outcome: 'denied', reason: 'Margem consignável insuficiente' },
  },
  {
    name: 'suggested shape: CANCELADO with motivo {codigo, descricao}',
    payload: { evento: 'CONTRATO_STATUS', idProposta: 'P', idContrato: U, status: 'CANCELADO', motivo: { codigo: 'SVC_40021', descricao: 'Dados bancários inconsistentes' } },
    want: { outcome: 'cancelled', reason: 'SVC_40021: Dados bancários inconsistentes', idProposta: 'P' },
  },
  {
    name: 'Celcoin envelope: payload.application_id / status',
    payload: { type: 'APPLICATION_STATUS_UPDATED', createdAt: '2025-04-09T20:00:20Z', payload: { application_id: U, status: 'CANCELED' } },
    want: { idContrato: U, status: 'CANCELED', outcome: 'cancelled' },
  },
  {
    name: 'Celcoin, status not final',
    payload: { type: 'APPLICATION_STATUS_UPDATED', payload: { application_id: U, status: 'PENDING_SIGNATURE' } },
    want: { idContrato: U, status: 'PENDING_SIGNATURE', outcome: 'unknown' },
  },
  {
    name: 'QI Tech reservation failure: reasons[] under data',
    payload: {
      webhook_type: 'laas.private_payroll.reservation_failure',
      key: 'ext-1',
      status: 'pending_reservation',
      data: { reservation_key: 'r', reservation_type: 'new_credit', reasons: [{ enumerator: 'monthly_interest_rate_exceeds_active_proposal', description: 'Taxa acima' }] },
    },
    want: { idContrato: null, status: 'pending_reservation', outcome: 'unknown', reason: 'monthly_interest_rate_exceeds_active_proposal: Taxa acima' },
  },
  {
    name: 'QI Tech debt "canceled " (trailing space) with data.cancel_reason, id named by the operator',
    payload: { webhook_type: 'debt', key: 'debt-9', status: 'canceled ', data: { cancel_reason: 'Erro no desembolso', cancel_reason_enumerator: 'disbursing_error' } },
    options: { idField: 'key' },
    want: { idContrato: 'debt-9', status: 'canceled', outcome: 'cancelled', reason: 'Erro no desembolso' },
  },
  {
    name: 'QI Tech status only under data (reservation_status named by the operator)',
    payload: { webhook_type: 'x', key: 'k', event_datetime: 'now', data: { reservation_status: 'authorized' } },
    options: { statusField: 'data.reservation_status', idField: 'key' },
    want: { idContrato: 'k', status: 'authorized', outcome: 'unknown' },
  },
  {
    name: 'V8 consultId, REJECTED',
    payload: { type: 'private.consignment.consult.updated', timestamp: '2024-09-02 18:39:49', consultId: U, status: 'REJECTED' },
    want: { idContrato: U, status: 'REJECTED', outcome: 'denied' },
  },
  {
    name: 'Banco Semear: data.id + success:false',
    payload: { webhook_type: 'worker_credit.endorsement', success: false, data: { id: U, raw_dataprev_data: {} } },
    want: { idContrato: U, status: 'false', outcome: 'denied' },
  },
  {
    name: 'nested contrato.id with situacao under contrato',
    payload: { evento: { tipo: 'X' }, id: 'evt_1', contrato: { id: 'CT-77', situacao: 'Aprovada' } },
    want: { idContrato: 'CT-77', status: 'Aprovada', outcome: 'approved' },
  },
  {
    name: 'everything under data.contrato, decisao',
    payload: { data: { contrato: { id_contrato: 'C-3', decisao: 'NEGADO', proposalId: 'P-3' } } },
    want: { idContrato: 'C-3', idProposta: 'P-3', status: 'NEGADO', outcome: 'denied' },
  },
  {
    name: 'top-level id is the event, not the contract',
    payload: { id: 'evt_123', status: 'APROVADO' },
    want: { idContrato: null, outcome: 'approved' },
  },
  {
    name: 'shallowest status wins over a deeper one',
    payload: { resultado: 'RECUSADO', data: { status: 'APROVADO', contractId: 'C' } },
    want: { status: 'RECUSADO', outcome: 'denied', idContrato: 'C' },
  },
  {
    name: 'numeric status (BMP) is unknown, kept as text',
    payload: { proposta: 'g', situacao: 2, idContrato: 12345 },
    want: { status: '2', outcome: 'unknown', idContrato: '12345' },
  },
  {
    name: 'boolean resultado true',
    payload: { statusProposta: true, idContrato: 'C' },
    want: { status: 'true', outcome: 'approved' },
  },
  {
    name: 'override path absent: falls back to the search',
    payload: { idContrato: 'C-1', status: 'APROVADO' },
    options: { idField: 'data.nope', statusField: 'nope' },
    want: { idContrato: 'C-1', outcome: 'approved' },
  },
  {
    name: 'override wins over a default key',
    payload: { idContrato: 'wrong', meta: { contract: { number: 'right' } }, status: 'APROVADO', final: { decision: 'DENIED' } },
    options: { idField: 'meta.contract.number', statusField: 'final.decision' },
    want: { idContrato: 'right', status: 'DENIED', outcome: 'denied' },
  },
  {
    name: 'too deep is not found (bounded search)',
    payload: { a: { b: { c: { d: { e: { idContrato: 'deep', status: 'APROVADO' } } } } } },
    want: { idContrato: null, status: null, outcome: 'unknown' },
  },
  { name: 'not an object', payload: [1, 2, 3], want: { idContrato: null, status: null, outcome: 'unknown', reason: null } },
  { name: 'null', payload: null, want: { idContrato: null, status: null, outcome: 'unknown' } },
  { name: 'empty status string', payload: { status: '  ', idContrato: 'C' }, want: { status: null, outcome: 'unknown' } },
];

describe('extractResult', () => {
  it.each(shapes)('$name', ({ payload, options, want }) => {
    expect(extractResult(payload, options)).toMatchObject(want);
  });
});

describe('mapStatus', () => {
  const table: [unknown, string][] = [
    ['APROVADO', 'approved'], ['aprovada', 'approved'], ['Approved', 'approved'], [true, 'approved'], ['true', 'approved'],
    ['REPROVADO', 'denied'], ['recusado', 'denied'], ['NEGADO', 'denied'], ['Rejeitado', 'denied'], ['DENIED', 'denied'],
    ['rejected', 'denied'], [false, 'denied'], ['FALSE', 'denied'],
    ['CANCELADO', 'cancelled'], ['canceled ', 'cancelled'], ['Cancelled', 'cancelled'], [' c a n c e l a d o ', 'cancelled'],
    ['EM_ANALISE', 'unknown'], ['SUCCESS', 'unknown'], [2, 'unknown'], [null, 'unknown'], [{}, 'unknown'],
  ];
  it.each(table)('%j → %s', (raw, want) => {
    expect(mapStatus(raw)).toBe(want);
  });
});

describe('getPath', () => {
  it.each([
    ['a.b', { a: { b: 1 } }, 1],
    ['a.0.c', { a: [{ c: 'x' }] }, 'x'],
    ['a.b.c', { a: { b: 'str' } }, undefined],
    ['missing', {}, undefined],
  ] as const)('%s', (path, value, want) => {
    expect(getPath(value, path)).toBe(want);
  });
});
