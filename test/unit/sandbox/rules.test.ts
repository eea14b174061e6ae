import { describe, expect, it } from 'vitest';
import { indexCatalogue, loadCatalogue } from '../../../src/sandbox/catalogue.js';
import {
  createRateLimiter,
  decideSubmission,
  defaultWebhookRetry,
  retryAfterSeconds,
  toServiceErros,
  validationCode,
  webhookRetryDelayMs,
  type SubmissionCore,
} from '../../../src/sandbox/rules.js';

describe('validationCode', () => {
  it.each([
    ['', 'SVC_V00001'],
    ['(root)', 'SVC_V00001'],
    ['idProposta', 'SVC_V00101'],
    ['pessoa.endereco.cep', 'SVC_V00227'],
    ['pessoa.documento.dataDeEmissao', 'SVC_V00214'],
    ['pessoa.telefone', 'SVC_V00233'],
    ['contaBancaria', 'SVC_V00300'],
    ['contaBancaria.agencia', 'SVC_V00302'],
    ['contaBancaria.chavePix', 'SVC_V00305'],
    ['pessoa.endereco.cep.extra', 'SVC_V00227'],
    ['pessoa.apelido', 'SVC_V00200'],
    ['campoDesconhecido', 'SVC_V00999'],
  ])('%j → %s', (path, code) => {
    expect(validationCode(path)).toBe(code);
  });

  it('names the field in msg', () => {
    expect(toServiceErros([{ path: 'pessoa.endereco.cep', message: 'expected 8 digits' }])).toEqual([
      { codigo: 'SVC_V00227', msg: 'pessoa.endereco.cep: expected 8 digits' },
    ]);
  });
});

const catalogue = indexCatalogue(loadCatalogue());
const bank = { compe: '999', agencia: '0002', conta: '11111-1', tipo: 'POUPANCA' };
const submission = (idProposta: string, contaBancaria: SubmissionCore['contaBancaria']): SubmissionCore => ({ idProposta, contaBancaria });
const none = (): undefined => undefined;

describe('decideSubmission', () => {
  it.each([
    ['unknown proposal', submission('PROP-0000', bank), none, 'not_found', ['SVC_P00003']],
    ['known proposal with bank data', submission('PROP-1001', bank), none, 'accepted', []],
    ['worker busy', submission('PROP-1004', bank), (cpf: string) => (cpf === '52998224725' ? 'c-1' : undefined), 'rejected', ['SVC_C00001']],
    ['other worker busy', submission('PROP-1003', bank), (cpf: string) => (cpf === '52998224725' ? 'c-1' : undefined), 'accepted', []],
    ['key of another worker', submission('PROP-1001', { ...bank, chavePix: 'outra.pessoa@example.com' }), none, 'rejected', ['SVC_B00001']],
    ['key not in directory', submission('PROP-1001', { chavePix: 'ninguem@example.com' }), none, 'rejected', ['SVC_B00002']],
    ['busy and unlinked key', submission('PROP-1004', { chavePix: '+5511987654321' }), () => 'c-1', 'rejected', ['SVC_C00001', 'SVC_B00001']],
  ] as const)('%s', (_name, input, busy, kind, codes) => {
    const decision = decideSubmission(input, catalogue, busy);
    expect(decision.kind).toBe(kind);
    expect('erros' in decision ? decision.erros.map((e) => e.codigo) : []).toEqual(codes);
  });

  it('records the linked key\'s bank data instead of the data sent', () => {
    const decision = decideSubmission(submission('PROP-1001', { ...bank, chavePix: '123e4567-e89b-12d3-a456-426614174000' }), catalogue, none);
    expect(decision).toMatchObject({
      kind: 'accepted',
      pixReplaced: true,
      contaBancaria: { compe: '077', agencia: '0001', conta: '7654321-0', tipo: 'CORRENTE', chavePix: '123e4567-e89b-12d3-a456-426614174000' },
    });
  });

  it('a linked key alone resolves to its bank data without counting as a replacement', () => {
    const decision = decideSubmission(submission('PROP-1003', { chavePix: 'ana.lima@example.com' }), catalogue, none);
    expect(decision).toMatchObject({ kind: 'accepted', pixReplaced: false, contaBancaria: { compe: '341', conta: '12345-6' } });
  });

  it('bank data alone is recorded as sent', () => {
    const decision = decideSubmission(submission('PROP-1003', bank), catalogue, none);
    expect(decision).toMatchObject({ kind: 'accepted', pixReplaced: false, contaBancaria: bank });
  });
});

describe('createRateLimiter', () => {
  it('allows a burst of n, then refuses until a token refills', () => {
    const limiter = createRateLimiter(2);
    expect(limiter.take(0)).toEqual({ ok: true });
    expect(limiter.take(0)).toEqual({ ok: true });
    expect(limiter.take(0)).toEqual({ ok: false, retryAfterMs: 500 });
    expect(limiter.take(250)).toEqual({ ok: false, retryAfterMs: 250 });
    expect(limiter.take(500)).toEqual({ ok: true });
    expect(limiter.take(10_000)).toEqual({ ok: true });
    expect(limiter.take(10_000)).toEqual({ ok: true });
    expect(limiter.take(10_000).ok).toBe(false);
  });

  it.each([
    [1, 1],
    [999, 1],
    [1000, 1],
    [1001, 2],
    [0, 1],
  ])('Retry-After for %i ms is %i s', (ms, s) => {
    expect(retryAfterSeconds(ms)).toBe(s);
  });
});

describe('webhookRetryDelayMs', () => {
  const policy = { tries: 8, baseDelayMs: 250, maxDelayMs: 10_000 };
  it.each([
    [1, 0, 125],
    [1, 1, 250],
    [2, 0.5, 375],
    [3, 1, 1000],
    [7, 1, 10_000],
    [20, 0, 5000],
  ])('after attempt %i with random %d waits %i ms', (attempt, r, ms) => {
    expect(webhookRetryDelayMs(attempt, policy, () => r)).toBe(ms);
  });
});

describe('defaultWebhookRetry', () => {
  // Total wait over all retries, with jitter at its least (0) and most (1).
  const span = (r: number): number => {
    let total = 0;
    for (let n = 1; n < defaultWebhookRetry.tries; n++) total += webhookRetryDelayMs(n, defaultWebhookRetry, () => r);
    return total;
  };
  it('keeps retrying a down listener for about 15 minutes, at most a minute apart', () => {
    expect(defaultWebhookRetry).toEqual({ tries: 23, baseDelayMs: 250, maxDelayMs: 60_000 });
    expect(span(1)).toBe(903_750);
    expect(span(0)).toBe(451_875);
  });
});

describe('module surface', () => {
  it.each(['PROPOSAL_NOT_FOUND', 'CONTRACT_IN_PROGRESS', 'PIX_KEY_NOT_LINKED', 'PIX_KEY_UNKNOWN', 'OTHER_FIELD_PROBLEM', 'validationCodes'])(
    '%s is internal (nothing outside uses it)',
    async (name) => {
      expect(Object.keys(await import('../../../src/sandbox/rules.js'))).not.toContain(name);
    },
  );
});
