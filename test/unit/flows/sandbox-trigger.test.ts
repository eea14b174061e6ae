import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EconsigError, ExitCode } from '../../../src/errors.js';
import { sendTrigger, triggerTarget } from '../../../src/flows/sandbox-trigger.js';
import { announceSandbox } from '../../../src/settings/sandbox-announce.js';
import { startSandbox } from '../../../src/sandbox/server.js';

const running: Array<{ close(): unknown }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** A server that is not a sandbox: every request answered `status` with `body`. */
async function notASandbox(status: number, body: string): Promise<string> {
  const server: Server = createServer((_req, res) => res.writeHead(status, { 'content-type': 'text/plain' }).end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  running.push({ close: () => new Promise((resolve) => server.close(resolve)) });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const failure = async (p: Promise<unknown>): Promise<EconsigError> => {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EconsigError);
  return error as EconsigError;
};

describe('sendTrigger', () => {
  it.each([
    ['a 200 that is not a trigger\'s answer (a watch, an app)', 200, 'ok'],
    ['an error page without the sandbox\'s erros', 500, ''],
    ['a 404 page, with --contract', 404, 'Not Found'],
  ])('%s: exit 7 saying it is not a sandbox, never an internal error', async (_name, status, body) => {
    const url = await notASandbox(status, body);
    const error = await failure(sendTrigger({ url, token: 't' }, { outcome: 'approved', idContrato: 'C-1' }));
    expect(error.exitCode).toBe(ExitCode.unavailable);
    expect(error.message).toBe(`${url} answered ${status}, not as an econsig sandbox answers a trigger.`);
  });

  it('a sandbox: a contract it did not issue exits 4 naming it; a request it refuses says why', async () => {
    const sandbox = await startSandbox({ port: 0, token: 't', webhookUrl: 'http://127.0.0.1:9/none', delayMs: 60_000 });
    running.push(sandbox);
    const unknown = await failure(sendTrigger({ url: sandbox.url, token: 't' }, { outcome: 'approved', idContrato: 'C-NEVER' }));
    expect(unknown.exitCode).toBe(ExitCode.notFound);
    expect(unknown.message).toContain('C-NEVER');
    const refused = await failure(sendTrigger({ url: sandbox.url, token: 't' }, { outcome: 'approved', idProposta: 'P', times: 1000 }));
    expect(refused.exitCode).toBe(ExitCode.usage);
    expect(refused.message).toContain('refused the trigger (400): times');
  });
});

describe('triggerTarget', () => {
  it('the sandbox announced in this home takes its token, however its URL is given (a trailing slash); another URL needs ECONSIG_TOKEN', async () => {
    const home = mkdtempSync(join(tmpdir(), 'econsig-trigger-'));
    running.push({ close: () => rmSync(home, { recursive: true, force: true }) });
    await announceSandbox(home, { url: 'http://127.0.0.1:4010', token: 'sbx_announced', pid: process.pid });
    expect(triggerTarget(home, undefined, undefined)).toEqual({ url: 'http://127.0.0.1:4010', token: 'sbx_announced' });
    expect(triggerTarget(home, 'http://127.0.0.1:4010/', undefined)).toEqual({ url: 'http://127.0.0.1:4010', token: 'sbx_announced' });
    expect(() => triggerTarget(home, 'http://127.0.0.1:4011', undefined)).toThrow('No token for the sandbox at http://127.0.0.1:4011.');
    expect(triggerTarget(home, 'http://127.0.0.1:4011/', 'sbx_env')).toEqual({ url: 'http://127.0.0.1:4011', token: 'sbx_env' });
  });
});
