import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../src/webhook/verify.js';
import { send, startListener, validSubmission } from '../unit/sandbox/helpers.js';
import { waitFor } from '../wait-for.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'econsig.js');
const home = mkdtempSync(join(tmpdir(), 'econsig-e2e-sandbox-'));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

function startCli(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: root,
    env: { ...process.env, CI: '1', NO_COLOR: '1', ECONSIG_HOME: home, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const lines: string[] = [];
  let stderr = '';
  createInterface({ input: child.stdout! }).on('line', (line) => lines.push(line));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, lines, stderr: () => stderr, exited };
}

describe('econsig sandbox (built binary)', () => {
  it('--json: first line names base URL and token; a POST works; SIGTERM exits 0 and reports', async () => {
    const listener = await startListener();
    try {
      const cli = startCli(['sandbox', '--port', '0', '--delay', '0.2', '--json', '--webhook-url', listener.url]);
      await waitFor(() => cli.lines.length >= 1, 10_000);
      const first = JSON.parse(cli.lines[0]!);
      expect(first).toMatchObject({ event: 'listening', baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), token: expect.stringMatching(/^sbx_/), webhookUrl: listener.url });

      const res = await send(`${first.baseUrl}/api/v1/e-consignado/contratos`, {
        headers: { authorization: `Bearer ${first.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(validSubmission('PROP-1003')),
      });
      expect(res.status).toBe(202);
      await waitFor(() => listener.deliveries.length === 1, 5000);
      await waitFor(() => cli.lines.length >= 3);
      const events = cli.lines.map((l) => JSON.parse(l));
      expect(events[1]).toMatchObject({ event: 'request', status: 202, idContrato: res.json.idContrato });
      expect(events[2]).toMatchObject({ event: 'webhook', idContrato: res.json.idContrato, attempt: 1, delivered: true, httpStatus: 200 });

      cli.child.kill('SIGTERM');
      expect(await cli.exited).toBe(0);
      expect(JSON.parse(cli.lines.at(-1)!)).toEqual({ event: 'closed', pendingWebhooks: 0, pending: [] });
    } finally {
      await listener.close();
    }
  });

  it('human mode: greppable first line; pending results reported on SIGINT', async () => {
    const cli = startCli(['sandbox', '--port', '0', '--delay', '30', '--token', 'sbx_fixed']);
    await waitFor(() => cli.lines.length >= 1, 10_000);
    const match = /^econsig sandbox listening on (http:\/\/127\.0\.0\.1:\d+) token sbx_fixed$/.exec(cli.lines[0]!);
    expect(match).not.toBeNull();
    const res = await send(`${match![1]}/api/v1/e-consignado/contratos`, {
      headers: { authorization: 'Bearer sbx_fixed', 'content-type': 'application/json' },
      body: JSON.stringify(validSubmission('PROP-1001')),
    });
    expect(res.status).toBe(202);
    await waitFor(() => cli.lines.length >= 2);
    expect(cli.lines[1]).toMatch(/ request POST \/api\/v1\/e-consignado\/contratos 202 idProposta=PROP-1001 idContrato=/);
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(0);
    expect(cli.lines.at(-1)).toBe(`econsig sandbox stopped; 1 webhook result(s) not delivered: ${res.json.idContrato}`);
  });

  it('a port in use exits 2 at once with the reason', async () => {
    const listener = await startListener();
    try {
      const cli = startCli(['sandbox', '--port', String(listener.port)]);
      expect(await cli.exited).toBe(2);
      expect(cli.stderr()).toContain(`Cannot listen on 127.0.0.1:${listener.port}: the port is already in use (EADDRINUSE)`);
      expect(cli.lines).toEqual([]);
    } finally {
      await listener.close();
    }
  });

  it('signs with the configured webhook.secret (config set), as watch verifies it', async () => {
    const own = mkdtempSync(join(tmpdir(), 'econsig-e2e-sandbox-secret-'));
    const listener = await startListener();
    try {
      const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
      const set = startCli(['config', 'set', 'webhook.secret', secret], { ECONSIG_HOME: own });
      expect(await set.exited).toBe(0);
      const cli = startCli(['sandbox', '--port', '0', '--delay', '0.1', '--json', '--webhook-url', listener.url], { ECONSIG_HOME: own });
      await waitFor(() => cli.lines.length >= 1, 10_000);
      const first = JSON.parse(cli.lines[0]!);
      expect(first).toMatchObject({ event: 'listening', signed: true });
      const res = await send(`${first.baseUrl}/api/v1/e-consignado/contratos`, {
        headers: { authorization: `Bearer ${first.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(validSubmission('PROP-1003')),
      });
      expect(res.status).toBe(202);
      await waitFor(() => listener.deliveries.length === 1, 5000);
      const d = listener.deliveries[0]!;
      const verified = verifyWebhook({ secret, headers: d.headers, body: d.body, nowSeconds: Math.floor(Date.now() / 1000) });
      expect(verified.ok).toBe(true);
      cli.child.kill('SIGTERM');
      expect(await cli.exited).toBe(0);
    } finally {
      await listener.close();
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('an unusable secret exits 2 naming where it came from', async () => {
    const cli = startCli(['sandbox', '--port', '0'], { ECONSIG_WEBHOOK_SECRET: 'whsec_@@@' });
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toContain('ECONSIG_WEBHOOK_SECRET');
    expect(cli.stderr()).toMatch(/not valid base64/);
    expect(cli.lines).toEqual([]);
  });

  it('a bad --proposals file exits 2 naming the file', async () => {
    const cli = startCli(['sandbox', '--port', '0', '--proposals', join(home, 'nope.json')]);
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toMatch(/Cannot read the catalogue .*nope\.json/);
  });
});
