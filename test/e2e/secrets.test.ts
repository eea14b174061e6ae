/**
 * Secrets never printed (issue 23): the built binary run with each secret a team holds (the
 * database password in the URL's user-info and as `?password=`, a static token, an OAuth
 * client secret, a webhook secret, a token endpoint that answers a 400 carrying an
 * access_token) through config, doctor, a refusing database (exit 74), submit, watch, the
 * receiver's /healthz and /metrics and its command line in `ps`. Every output is searched for
 * every secret: none may appear (files holding one must be 0600: expectNoLeak).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectNoLeak, startLoggedSandbox } from './auth-harness.js';
import { havePostgres, type PgCluster, startPostgres } from './postgres.js';
import { runCli, type RunResult } from './run-cli.js';
import { freePort, parseSubmitJson, startCountedSandbox, startStub, useScratch } from './submit-harness.js';
import { killWatches, startWatch, type WatchProcess } from './watch-process.js';

const scratch = useScratch();
const homes: string[] = [];
const WEBHOOK_SECRET = `whsec_${Buffer.from('callback-secret-of-the-team-0123').toString('base64')}`;
const STATIC_TOKEN = 'sbx_static-token-of-the-desk-4242';
const LEAKED_TOKEN = 'tok-the-endpoint-should-never-have-sent-7e7e';

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'econsig-e2e-secrets-'));
  homes.push(dir);
  return dir;
}

afterEach(() => killWatches());
afterAll(() => {
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Every output of a run, the text the operator and a CI log would hold. */
const outputs = (...runs: RunResult[]): string[] => runs.flatMap((r) => [r.stdout, r.stderr]);

async function get(url: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await request(url, { headers, headersTimeout: 10_000 });
  return `${res.statusCode} ${JSON.stringify(res.headers)} ${await res.body.text()}`;
}

/** The receiver's command line as `ps` shows it to every user of the machine. */
async function commandLine(pid: number): Promise<string> {
  const { stdout } = await promisify(execFile)('ps', ['-ww', '-o', 'args=', '-p', String(pid)]);
  expect(stdout).toContain('watch');
  return stdout;
}

/** What a watch printed, its /healthz, /metrics and /readyz to anyone, and its command line; the /healthz answer first. */
async function receiverOutputs(w: WatchProcess, url: string): Promise<string[]> {
  const base = url.replace(/\/webhook$/, '');
  const seen = [await get(`${base}/healthz`), await get(`${base}/metrics`), await get(`${base}/readyz`), await commandLine(w.child.pid!)];
  expect(await w.stop()).toBe(0);
  return [...seen, w.lines.join('\n'), w.stderr()];
}

/** /healthz to anyone: status and the store's id, not its path, host or user. */
function expectStatusOnly(health: string | undefined): void {
  expect(health).toMatch(/"storeId":"[0-9a-f]{32}"/);
  expect(health).not.toContain('"store"');
}

describe.skipIf(!havePostgres())('secrets never printed: the database password', () => {
  let pg: PgCluster;
  let withUserInfo: string;
  let withParameter: string;
  beforeAll(async () => {
    pg = await startPostgres();
    withUserInfo = await pg.createDatabase('secrets');
    withParameter = `${withUserInfo.replace(`:${encodeURIComponent(pg.password)}@`, '@')}?sslmode=disable&password=${encodeURIComponent(pg.password)}`;
  }, 60_000);
  afterAll(async () => {
    await pg?.stop();
  });

  it.each([
    ['in the user-info', () => withUserInfo],
    ['as ?password=', () => withParameter],
  ])('the password %s: config, doctor, submit --wait, watch with /healthz, /metrics and ps show the database without it', async (_form, urlOf) => {
    const db = urlOf();
    expect(db).toContain(pg.password);
    const shown = `postgres://econsig@127.0.0.1:${pg.port}/secrets`;

    // config: set in a profile, then read back (human and --json), and from the variable.
    const desk = home();
    const set = await runCli(['config', 'set', 'database-url', db], { env: { ECONSIG_HOME: desk } });
    const got = await runCli(['config', 'get', 'database-url'], { env: { ECONSIG_HOME: desk } });
    const list = await runCli(['config', 'list'], { env: { ECONSIG_HOME: desk } });
    const listJson = await runCli(['config', 'list', '--json'], { env: { ECONSIG_HOME: home(), ECONSIG_DATABASE_URL: db } });
    for (const r of [set, got, list, listJson]) expect(r.code, r.stderr).toBe(0);
    expect(got.stdout).toContain(shown);
    expect((JSON.parse(listJson.stdout) as { settings: Record<string, { value: string }> }).settings['database-url']!.value).toContain(shown);

    // The receiver on the team store, verifying signatures with the webhook secret (from the environment, not a flag).
    const w = startWatch(['--port', '0', '--json'], { ECONSIG_HOME: home(), ECONSIG_DATABASE_URL: db, ECONSIG_WEBHOOK_SECRET: WEBHOOK_SECRET });
    const url = await w.url();
    const sbx = await startCountedSandbox({ delayMs: 200, webhookUrl: url, secret: WEBHOOK_SECRET, token: STATIC_TOKEN });
    const env = { ECONSIG_HOME: desk, ECONSIG_BASE_URL: sbx.sandbox.url, ECONSIG_TOKEN: STATIC_TOKEN, ECONSIG_DATABASE_URL: db };
    const submit = await runCli(['submit', 'fixtures/valid/bank-and-pix.json', '--wait', '--timeout', '15', '--json'], { env, timeoutMs: 30_000 });
    expect(submit.code, submit.stderr).toBe(0);
    expect(parseSubmitJson(submit.stdout).results[0]).toMatchObject({ outcome: 'approved', result: { outcome: 'approved' } });
    expect(submit.stderr).toContain(`results from the team store ${shown}`);
    const history = await runCli(['history', '--json', '--verbose'], { env });
    const doctorJson = await runCli(['doctor', '--json'], { env });
    const doctor = await runCli(['doctor'], { env });
    for (const r of [history, doctorJson, doctor]) expect(r.code, r.stderr).toBe(0);
    expect(doctor.stderr).toContain(shown);
    const dryRun = await runCli(['submit', 'fixtures/valid/pix-only.json', '--dry-run', '--verbose'], { env });
    expect(dryRun.code, dryRun.stderr).toBe(0);

    const receiver = await receiverOutputs(w, url);
    expectNoLeak([pg.password, encodeURIComponent(pg.password), STATIC_TOKEN, WEBHOOK_SECRET], [...outputs(set, got, list, listJson, submit, history, doctorJson, doctor, dryRun), ...receiver], desk);
    expectStatusOnly(receiver[0]);
    expect(receiver[0]).not.toContain('127.0.0.1');
  }, 60_000);

  it('a database that refuses (a wrong password in either form, a closed port): exit 74, and no password in the message, cause, hint, --json or --verbose stack', async () => {
    const wrongUserInfo = withUserInfo.replace(encodeURIComponent(pg.password), 'Wr0ng-user-info-pw');
    const wrongParameter = withParameter.replace(encodeURIComponent(pg.password), 'Wr0ng-param-pw');
    const closed = withParameter.replace(`:${pg.port}/`, `:${await freePort()}/`);
    const seen: string[] = [];
    for (const db of [wrongUserInfo, wrongParameter, closed]) {
      const env = { ECONSIG_HOME: home(), ECONSIG_DATABASE_URL: db, ECONSIG_TOKEN: STATIC_TOKEN, ECONSIG_BASE_URL: 'http://127.0.0.1:9' };
      const runs = [
        await runCli(['history', '--json', '--verbose'], { env }),
        await runCli(['history', '--verbose'], { env }),
        await runCli(['submit', 'fixtures/valid/pix-only.json', '--json', '--verbose'], { env }),
      ];
      for (const r of runs) expect(r.code, r.stderr).toBe(74);
      expect(runs[1]!.stderr).toContain(`127.0.0.1:`);
      const doctor = await runCli(['doctor', '--json'], { env });
      expect(doctor.stdout).toMatch(/"name":"store","status":"fail"/);
      seen.push(...outputs(...runs, doctor));
    }
    expect(seen.join('\n')).toContain('28P01');
    expect(seen.join('\n')).toContain('ECONNREFUSED');
    expectNoLeak([pg.password, 'Wr0ng-user-info-pw', 'Wr0ng-param-pw'], seen, scratch.home);
  }, 60_000);
});

describe('secrets never printed: tokens and the callback secret', () => {
  it('an OAuth client secret and the tokens it gets: submit, doctor, auth status and config show none', async () => {
    const s = await startLoggedSandbox({ oauth: {} });
    try {
      const o = s.sandbox.oauth!;
      const env = { ECONSIG_HOME: scratch.home, ECONSIG_BASE_URL: s.sandbox.url, ECONSIG_TOKEN_URL: o.tokenUrl, ECONSIG_CLIENT_ID: o.clientId, ECONSIG_CLIENT_SECRET: o.clientSecret };
      const runs = [
        await runCli(['submit', 'fixtures/valid/bank-only.json', '--json', '--verbose'], { env }),
        await runCli(['doctor', '--json'], { env }),
        await runCli(['auth', 'status', '--json'], { env }),
        await runCli(['config', 'list', '--json'], { env }),
        await runCli(['submit', 'fixtures/valid/pix-only.json', '--dry-run'], { env }),
      ];
      expect(runs[0]!.code, runs[0]!.stderr).toBe(0);
      expect(o.issuedTokens().length).toBeGreaterThan(0);
      expectNoLeak([o.clientSecret, ...o.issuedTokens()], outputs(...runs), scratch.home);
    } finally {
      await s.close();
    }
  });

  it('a token endpoint that answers a 400 carrying an access_token: the error summarises it (status, fields), quoting no token', async () => {
    const endpoint = await startStub((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: LEAKED_TOKEN, token_type: 'bearer', refresh_token: LEAKED_TOKEN }));
    });
    const env = { ECONSIG_HOME: scratch.home, ECONSIG_BASE_URL: 'http://127.0.0.1:9', ECONSIG_TOKEN_URL: `${endpoint.url}/oauth2/token`, ECONSIG_CLIENT_ID: 'desk', ECONSIG_CLIENT_SECRET: 'cl1ent-s3cret-of-the-desk' };
    const runs = [
      await runCli(['submit', 'fixtures/valid/bank-only.json', '--json', '--verbose'], { env }),
      await runCli(['submit', 'fixtures/valid/bank-only.json', '--verbose'], { env }),
      await runCli(['doctor', '--json'], { env }),
    ];
    expect(runs[0]!.code, runs[0]!.stderr).toBe(7);
    expect(endpoint.requests()).toBeGreaterThan(0);
    expectNoLeak([LEAKED_TOKEN, 'cl1ent-s3cret-of-the-desk'], outputs(...runs), scratch.home);
    expect(runs[1]!.stderr).toContain('HTTP 400 without an access token: fields access_token, token_type, refresh_token');
  });

  it('a static token and a webhook secret: submit, config, and a receiver demanding a bearer token (its /healthz names the store only to that token)', async () => {
    const sbx = await startCountedSandbox({ token: STATIC_TOKEN });
    const env = { ECONSIG_HOME: scratch.home, ECONSIG_BASE_URL: sbx.sandbox.url, ECONSIG_TOKEN: STATIC_TOKEN, ECONSIG_WEBHOOK_SECRET: WEBHOOK_SECRET };
    const runs = [
      await runCli(['config', 'set', 'webhook.auth', 'bearer'], { env }),
      await runCli(['submit', 'fixtures/valid/bank-only.json', '--json', '--verbose'], { env }),
      await runCli(['submit', 'fixtures/valid/pix-only.json', '--dry-run', '--verbose'], { env }),
      await runCli(['config', 'list', '--json'], { env }),
      await runCli(['config', 'get', 'webhook.secret'], { env }),
      await runCli(['doctor', '--json'], { env }),
    ];
    expect(runs[1]!.code, runs[1]!.stderr).toBe(0);
    const w = startWatch(['--port', '0', '--json'], env);
    const url = await w.url();
    const base = url.replace(/\/webhook$/, '');
    const withToken = await get(`${base}/healthz`, { authorization: `Bearer ${WEBHOOK_SECRET}` });
    expect(withToken).toContain(`"store":${JSON.stringify(join(scratch.home, 'econsig.db'))}`);
    const receiver = await receiverOutputs(w, url);
    expectNoLeak([STATIC_TOKEN, WEBHOOK_SECRET], [...outputs(...runs), withToken, ...receiver], scratch.home);
    expectStatusOnly(receiver[0]);
    expect(receiver[0]).not.toContain(scratch.home);
  });
});
