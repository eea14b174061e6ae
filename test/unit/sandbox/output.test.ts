import { existsSync, readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SandboxLogEntry } from '../../../src/sandbox/server.js';
import { createSandboxOutput, curlExample } from '../../../src/ui/sandbox-output.js';

function capture(json: boolean) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (c: Buffer) => out.push(c.toString()));
  stderr.on('data', (c: Buffer) => err.push(c.toString()));
  return { io: { stdout, stderr, json }, out: () => out.join(''), err: () => err.join('') };
}

const info = { baseUrl: 'http://127.0.0.1:4010', token: 'sbx_abc', endpoint: 'http://127.0.0.1:4010/api/v1/e-consignado/contratos', webhookUrl: 'http://127.0.0.1:4020/webhook', delaySeconds: 3, signed: false };
const request: SandboxLogEntry = {
  event: 'request', time: 'T', method: 'POST', path: '/api/v1/e-consignado/contratos', status: 202, durationMs: 2,
  idProposta: 'PROP-1001', idContrato: 'c-1', pixReplaced: true, contaBancaria: { compe: '260', agencia: '0001', conta: '1234567-8', tipo: 'CORRENTE', chavePix: 'k' },
};
const webhook: SandboxLogEntry = {
  event: 'webhook', time: 'T', webhookId: 'msg_1', idContrato: 'c-1', idProposta: 'PROP-1001', status: 'APROVADO', url: 'u',
  attempt: 1, tries: 8, error: 'ECONNREFUSED', delivered: false, nextRetryMs: 250, durationMs: 1,
};

describe('sandbox output', () => {
  it.each([
    [request, 'T request POST /api/v1/e-consignado/contratos 202 idProposta=PROP-1001 idContrato=c-1 contaBancaria=pix:260/0001/1234567-8/CORRENTE 2ms'],
    [{ ...request, status: 422, idContrato: undefined, pixReplaced: undefined, codes: ['SVC_C00001'] }, 'T request POST /api/v1/e-consignado/contratos 422 idProposta=PROP-1001 erros=SVC_C00001 2ms'],
    [webhook, 'T webhook idContrato=c-1 APROVADO attempt=1/8 error=ECONNREFUSED retryIn=250ms'],
    [{ ...webhook, error: undefined, httpStatus: 204, delivered: true, nextRetryMs: undefined }, 'T webhook idContrato=c-1 APROVADO attempt=1/8 http=204 delivered'],
  ] as [SandboxLogEntry, string][])('human line %#', (entry, text) => {
    const c = capture(false);
    createSandboxOutput(c.io).log(entry);
    expect(c.out()).toBe(`${text}\n`);
  });

  it('first stdout line names base URL and token, in both modes', () => {
    const human = capture(false);
    createSandboxOutput(human.io).listening(info);
    expect(human.out()).toBe('econsig sandbox listening on http://127.0.0.1:4010 token sbx_abc\n');
    expect(human.err()).toContain("curl -i -X POST http://127.0.0.1:4010/api/v1/e-consignado/contratos -H 'Authorization: Bearer sbx_abc'");
    const json = capture(true);
    createSandboxOutput(json.io).listening(info);
    expect(JSON.parse(json.out())).toMatchObject({ event: 'listening', baseUrl: info.baseUrl, token: 'sbx_abc', webhookUrl: info.webhookUrl });
    expect(json.err()).toBe('');
  });

  it('the curl hint names the bundled example by its absolute path, so it works from any folder', () => {
    const c = capture(false);
    createSandboxOutput(c.io).listening(info);
    const example = fileURLToPath(new URL('../../../fixtures/valid/pix-only.json', import.meta.url));
    expect(existsSync(example)).toBe(true);
    expect(c.err()).toContain(` -d '@${example}'\n`);
  });

  it.each([
    ['linux', '/opt/econsig/fixtures/valid/pix-only.json', "curl -i -X POST http://h/c -H 'Authorization: Bearer sbx_abc' -H 'Content-Type: application/json' -d '@/opt/econsig/fixtures/valid/pix-only.json'"],
    ['linux', "/home/o'neil/pix-only.json", "curl -i -X POST http://h/c -H 'Authorization: Bearer sbx_abc' -H 'Content-Type: application/json' -d '@/home/o'\\''neil/pix-only.json'"],
    // PowerShell, Windows Terminal's default shell: its own single quotes, and curl.exe (curl alone is Invoke-WebRequest in Windows PowerShell).
    ['win32', "C:\\Users\\o'neil\\econsig\\fixtures\\valid\\pix-only.json", "curl.exe -i -X POST http://h/c -H 'Authorization: Bearer sbx_abc' -H 'Content-Type: application/json' -d '@C:\\Users\\o''neil\\econsig\\fixtures\\valid\\pix-only.json'"],
  ] as const)('the curl line on %s, for the example at %s', (platform, path, line) => {
    expect(curlExample('http://h/c', 'sbx_abc', path, platform)).toBe(line);
  });

  it('the single executable has no example on disk: the curl line carries it inline', () => {
    const example = readFileSync(fileURLToPath(new URL('../../../fixtures/valid/pix-only.json', import.meta.url)), 'utf8');
    const line = curlExample('http://h/c', 'sbx_abc', undefined, 'linux');
    expect(line).toMatch(/ -d '\{"idProposta":"PROP-1003",/);
    expect(JSON.parse(/ -d '(.*)'$/.exec(line)?.[1] ?? '')).toEqual(JSON.parse(example));
  });

  it('--json writes one object per line, the entry itself', () => {
    const c = capture(true);
    const out = createSandboxOutput(c.io);
    out.log(request);
    out.closed({ pendingWebhooks: 1, pending: ['c-1'] });
    expect(c.out().trim().split('\n').map((l) => JSON.parse(l))).toEqual([request, { event: 'closed', pendingWebhooks: 1, pending: ['c-1'] }]);
  });
});
