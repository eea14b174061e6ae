import { describe, expect, it } from 'vitest';
import {
  ProposalNotFoundError,
  RateLimitedError,
  ServerError,
  ServiceError,
  TimeoutError,
  UndocumentedAnswerError,
  UnauthorizedError,
  ValidationRejectedError,
  acceptedContractId,
  errorFromResponse,
  snippetOf,
} from '../../../src/service/errors.js';

const TOKEN = 'tok_live_9f8e7d6c5b4a39281706';
const erros = (...codes: string[]) => JSON.stringify({ erros: codes.map((codigo) => ({ codigo, msg: `msg ${codigo}` })) });
const html = '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>';

type Row = [name: string, status: number, body: string, cls: typeof ServiceError, code: string | number | undefined];

// Every status of docs/service.md section 7, then the shapes it does not document.
const rows: Row[] = [
  ['401 {code, message}', 401, '{"code":401,"message":"token expirado"}', UnauthorizedError, 401],
  ['401 empty message', 401, '{"code":900901,"message":""}', UnauthorizedError, 900901],
  ['401 no message field', 401, '{"code":900902}', UnauthorizedError, 900902],
  ['401 HTML from a gateway: still unauthorized', 401, html, UnauthorizedError, undefined],
  ['401 empty body', 401, '', UnauthorizedError, undefined],
  ['404 SVC_P00003', 404, erros('SVC_P00003'), ProposalNotFoundError, 'SVC_P00003'],
  ['404 SVC_P00003 not first', 404, erros('SVC_X1', 'SVC_P00003'), ProposalNotFoundError, 'SVC_X1'],
  ['404 other SVC code', 404, erros('SVC_V00001'), ValidationRejectedError, 'SVC_V00001'],
  ['404 HTML (wrong base URL)', 404, '<html>Not Found</html>', UndocumentedAnswerError, undefined],
  ['404 empty erros', 404, '{"erros":[]}', UndocumentedAnswerError, undefined],
  ['422 erros', 422, erros('SVC_V00010', 'SVC_V00011'), ValidationRejectedError, 'SVC_V00010'],
  ['422 in progress', 422, erros('SVC_C00001'), ValidationRejectedError, 'SVC_C00001'],
  ['422 without erros', 422, '{"message":"bad"}', UndocumentedAnswerError, undefined],
  ['422 erros item without codigo', 422, '{"erros":[{"msg":"x"}]}', UndocumentedAnswerError, undefined],
  ['400 erros (other 4xx)', 400, erros('SVC_R00001'), ValidationRejectedError, 'SVC_R00001'],
  ['409 erros (other 4xx)', 409, erros('SVC_R00002'), ValidationRejectedError, 'SVC_R00002'],
  ['403 HTML', 403, html, UndocumentedAnswerError, undefined],
  ['400 empty body', 400, '', UndocumentedAnswerError, undefined],
  ['429 no body', 429, '', RateLimitedError, undefined],
  ['429 HTML', 429, html, RateLimitedError, undefined],
  ['500 {code, message}', 500, '{"code":500,"message":"Internal"}', ServerError, 500],
  ['500 garbage', 500, 'oops', ServerError, undefined],
  ['502 HTML', 502, html, ServerError, undefined],
  ['503 empty', 503, '', ServerError, undefined],
  ['202 empty body', 202, '', UndocumentedAnswerError, undefined],
  ['202 HTML', 202, html, UndocumentedAnswerError, undefined],
  ['202 id not a UUID', 202, '{"idContrato":"123","erros":[]}', UndocumentedAnswerError, undefined],
  ['202 no erros', 202, '{"idContrato":"0b6c3e0e-7d2a-4a8f-9c1e-2f3a4b5c6d7e"}', UndocumentedAnswerError, undefined],
  ['200 instead of 202', 200, '{"idContrato":"0b6c3e0e-7d2a-4a8f-9c1e-2f3a4b5c6d7e","erros":[]}', UndocumentedAnswerError, undefined],
  ['302 redirect', 302, '', UndocumentedAnswerError, undefined],
  ['JSON array', 422, '[1,2]', UndocumentedAnswerError, undefined],
  ['truncated JSON', 422, '{"erros":[{"codigo":"SVC', UndocumentedAnswerError, undefined],
];

describe('errorFromResponse', () => {
  it.each(rows)('%s', (_name, status, body, cls, code) => {
    const error = errorFromResponse({ status, body, headers: { 'x-request-id': 'req-1' }, token: TOKEN });
    expect(error).toBeInstanceOf(cls);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.constructor).toBe(cls);
    expect(error.name).toBe(cls.name);
    expect(error.status).toBe(status);
    expect(error.code).toBe(code);
    expect(error.requestId).toBe('req-1');
    expect(error.message).toContain(String(status));
  });

  it('keeps the erros list and names the first code in the message', () => {
    const error = errorFromResponse({ status: 422, body: erros('SVC_V1', 'SVC_V2') });
    expect(error.erros).toEqual([
      { codigo: 'SVC_V1', msg: 'msg SVC_V1' },
      { codigo: 'SVC_V2', msg: 'msg SVC_V2' },
    ]);
    expect(error.message).toBe('HTTP 422 rejected: SVC_V1 msg SVC_V1 (+1 more)');
  });

  it('keeps a short single-line snippet of an undocumented body', () => {
    const error = errorFromResponse({ status: 404, body: `<html>\n${'x'.repeat(1000)}\n</html>` });
    expect(error.bodySnippet.length).toBeLessThanOrEqual(201);
    expect(error.bodySnippet).not.toContain('\n');
    expect(error.message).toContain('<html>');
  });

  it.each([
    ['seconds', '3', 3000],
    ['HTTP-date', 'Sun, 22 Nov 2026 12:00:10 GMT', 10_000],
    ['absent', undefined, undefined],
  ] as const)('429 Retry-After %s', (_name, value, expected) => {
    const headers = value === undefined ? {} : { 'retry-after': value };
    const error = errorFromResponse({ status: 429, body: '', headers, now: Date.parse('2026-11-22T12:00:00Z') });
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(expected);
  });

  it.each([
    ['in a 401 message', 401, JSON.stringify({ code: 1, message: `bad token ${TOKEN}` })],
    ['in a 422 msg', 422, JSON.stringify({ erros: [{ codigo: 'SVC_A1', msg: `echo ${TOKEN}` }] })],
    ['in a 500 message', 500, JSON.stringify({ code: 5, message: `Authorization: Bearer ${TOKEN}` })],
    ['in an HTML page', 404, `<pre>Authorization: Bearer ${TOKEN}</pre>`],
    ['as another bearer value', 400, '<pre>Authorization: Bearer somethingElse123</pre>'],
  ] as const)('never carries the token %s', (_name, status, body) => {
    const error = errorFromResponse({ status, body, token: TOKEN });
    const text = `${error.message} ${error.bodySnippet} ${JSON.stringify(error.erros)}`;
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('somethingElse123');
    expect(text).toContain('[redacted]');
  });
});

describe('acceptedContractId', () => {
  it.each([
    ['documented', '{"idContrato":"0B6C3E0E-7D2A-4A8F-9C1E-2F3A4B5C6D7E","erros":[]}', '0B6C3E0E-7D2A-4A8F-9C1E-2F3A4B5C6D7E'],
    ['extra fields allowed', '{"idContrato":"0b6c3e0e-7d2a-4a8f-9c1e-2f3a4b5c6d7e","erros":[],"x":1}', '0b6c3e0e-7d2a-4a8f-9c1e-2f3a4b5c6d7e'],
    ['erros not empty', '{"idContrato":"0b6c3e0e-7d2a-4a8f-9c1e-2f3a4b5c6d7e","erros":[{"codigo":"SVC_1","msg":""}]}', undefined],
    ['id number', '{"idContrato":1,"erros":[]}', undefined],
    ['not JSON', 'accepted', undefined],
  ] as const)('%s', (_name, body, expected) => {
    expect(acceptedContractId(body)).toBe(expected);
  });
});

describe('snippetOf', () => {
  it('flattens control characters', () => {
    expect(snippetOf('a\r\n\tb\u0007c')).toBe('a b c');
  });

  it('redacts the token', () => {
    expect(snippetOf(`{"detail":"bad token ${TOKEN}"}`, TOKEN)).toBe('{"detail":"bad token [redacted]"}');
  });
});

describe('transport errors', () => {
  it.each([
    ['connect', false],
    ['headers', true],
    ['body', true],
  ] as const)('TimeoutError %s: sent=%s', (phase, sent) => {
    expect(new TimeoutError('x', { phase, timeoutMs: 5 }).sent).toBe(sent);
  });
});
