/**
 * Shared pieces of the authentication e2e tests: the built sandbox in this process with
 * its OAuth2 token endpoint and HTTPS, every request it saw (path and status), and a
 * check that no secret is written to output or to any file others could read.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { TestCerts } from './certs.js';
import type { SandboxOptions } from './submit-harness.js';

type SandboxModule = typeof import('../../src/sandbox/server.js');
export type Sandbox = Awaited<ReturnType<SandboxModule['startSandbox']>>;

export interface LoggedSandbox {
  sandbox: Sandbox;
  /** Every request, with when its answer left (ms since the epoch). */
  log: Array<{ path: string; status: number; at: number }>;
  /** POSTs to the contracts endpoint. */
  posts(): LoggedSandbox['log'];
  tokenRequests(): LoggedSandbox['log'];
  close(): Promise<void>;
}

export const CONTRACTS = '/api/v1/e-consignado/contratos';

/** econsig aimed at `s` with its OAuth2 client credentials and, given `certs`, the good client certificate and the CA. */
export function oauthEnv(s: LoggedSandbox, certs?: TestCerts): Record<string, string> {
  const o = s.sandbox.oauth!;
  return {
    ECONSIG_BASE_URL: s.sandbox.url,
    ECONSIG_TOKEN_URL: o.tokenUrl,
    ECONSIG_CLIENT_ID: o.clientId,
    ECONSIG_CLIENT_SECRET: o.clientSecret,
    ...(certs ? { ECONSIG_TLS_CERT: certs.clientCert, ECONSIG_TLS_KEY: certs.clientKey, ECONSIG_TLS_CA: certs.ca } : {}),
  };
}

export async function startLoggedSandbox(options: Omit<SandboxOptions, 'port' | 'onLog'> = {}): Promise<LoggedSandbox> {
  const { startSandbox } = (await import(new URL('../../dist/sandbox/server.js', import.meta.url).href)) as SandboxModule;
  const log: LoggedSandbox['log'] = [];
  const sandbox = await startSandbox({
    port: 0,
    delayMs: 60_000,
    ...options,
    onLog: (entry) => {
      if (entry.event === 'request') log.push({ path: entry.path, status: entry.status, at: Date.now() });
    },
  });
  return {
    sandbox,
    log,
    posts: () => log.filter((e) => e.path === CONTRACTS),
    tokenRequests: () => log.filter((e) => e.path === '/oauth2/token'),
    close: async () => void (await sandbox.close()),
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/**
 * None of `secrets` appears in `outputs`, nor in any file under `home` that group or
 * others could read. Returns the 0600 files that do hold one (config, token cache).
 */
export function expectNoLeak(secrets: string[], outputs: string[], home: string): string[] {
  const holders: string[] = [];
  for (const secret of secrets) {
    for (const text of outputs) expect(text.includes(secret), `a secret appears in output: ${text.slice(0, 300)}`).toBe(false);
  }
  for (const file of filesUnder(home)) {
    const text = readFileSync(file, 'utf8');
    const holds = secrets.some((secret) => text.includes(secret));
    if (!holds) continue;
    expect((statSync(file).mode & 0o777).toString(8), `${file} holds a secret`).toBe('600');
    holders.push(file);
  }
  return holders;
}
