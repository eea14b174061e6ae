/**
 * `econsig auth` and `econsig config` through the built binary (run `npx tsc -p .` first;
 * `npm test` does): exit codes, stdout/stderr split, and the token never leaking.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'econsig.js');
const TOKEN = 'tok_live_Zx81ab77QQ_secretpart_9f3e';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

let home: string;

function econsig(
  args: string[],
  options: { input?: string; env?: Record<string, string>; stdin?: 'pipe' | 'ignore' } = {},
): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: root,
      // A clean environment: nothing of the developer's ECONSIG_* leaks in.
      env: { PATH: process.env.PATH ?? '', HOME: home, CI: '1', NO_COLOR: '1', ECONSIG_HOME: join(home, 'econsig'), ...options.env },
      stdio: [options.stdin ?? 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`econsig ${args.join(' ')} did not finish in 10 s`));
    }, 10_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
    if (child.stdin) child.stdin.end(options.input ?? '');
  });
}

const login = (token = TOKEN, args: string[] = []) => econsig(['auth', 'login', '--with-token', ...args], { input: `${token}\n` });

beforeAll(() => {
  if (!existsSync(join(root, 'dist', 'commands', 'auth.js'))) {
    throw new Error('dist/ is missing: run `npx tsc -p .` (npm test builds first).');
  }
});

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'econsig-e2e-auth-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('auth', () => {
  it('login --with-token stores it 0600 in a 0700 home; status masks it; token prints it', async () => {
    const stored = await login();
    expect(stored.code).toBe(0);
    expect(stored.stdout).toBe('');
    expect(stored.stderr).toContain('profile default');
    const config = join(home, 'econsig', 'config.json');
    expect((await stat(config)).mode & 0o777).toBe(0o600);
    expect((await stat(join(home, 'econsig'))).mode & 0o777).toBe(0o700);

    const status = await econsig(['auth', 'status']);
    expect(status.code).toBe(0);
    expect(status.stderr).toContain('****9f3e');
    expect(status.stderr).toContain(config);
    expect(status.stderr).toContain('http://127.0.0.1:4010');
    expect(status.stdout + status.stderr).not.toContain(TOKEN);

    const json = await econsig(['auth', 'status', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      method: 'token',
      profile: 'default',
      baseUrl: 'http://127.0.0.1:4010',
      token: { present: true, masked: '****9f3e', source: 'file', path: config },
    });
    expect(json.stdout + json.stderr).not.toContain(TOKEN);

    const raw = await econsig(['auth', 'token']);
    expect(raw).toMatchObject({ code: 0, stdout: `${TOKEN}\n` });
    expect(raw.stderr).not.toContain(TOKEN);
  });

  it('logout removes the token; then status, token exit 3 with the way to log in', async () => {
    await login();
    const out = await econsig(['auth', 'logout']);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain('Removed');
    expect((await econsig(['auth', 'logout'])).stderr).toContain('nothing to remove');

    const status = await econsig(['auth', 'status']);
    expect(status.code).toBe(3);
    expect(status.stderr).toContain('econsig auth login');
    expect(status.stderr).toContain('ECONSIG_TOKEN');

    const json = await econsig(['auth', 'status', '--json']);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout).token).toEqual({ present: false, masked: null, source: null });

    const token = await econsig(['auth', 'token']);
    expect(token).toMatchObject({ code: 3, stdout: '' });
    expect(await readFile(join(home, 'econsig', 'config.json'), 'utf8')).not.toContain(TOKEN);
  });

  it('ECONSIG_TOKEN takes precedence over the stored token, and login/logout warn about it', async () => {
    const warned = await econsig(['auth', 'login', '--with-token'], { input: TOKEN, env: { ECONSIG_TOKEN: 'env_token_abcdef_1234' } });
    expect(warned.code).toBe(0);
    expect(warned.stderr).toMatch(/warning: ECONSIG_TOKEN is set/);

    const status = await econsig(['auth', 'status', '--json'], { env: { ECONSIG_TOKEN: 'env_token_abcdef_1234' } });
    expect(JSON.parse(status.stdout).token).toEqual({ present: true, masked: '****1234', source: 'env' });
    const raw = await econsig(['auth', 'token'], { env: { ECONSIG_TOKEN: 'env_token_abcdef_1234' } });
    expect(raw.stdout).toBe('env_token_abcdef_1234\n');

    const out = await econsig(['auth', 'logout'], { env: { ECONSIG_TOKEN: 'x' } });
    expect(out.stderr).toContain('ECONSIG_TOKEN is still set');
  });

  it('keeps tokens per --profile', async () => {
    expect((await login(TOKEN, ['--profile', 'homolog'])).code).toBe(0);
    expect((await econsig(['auth', 'token', '--profile', 'homolog'])).stdout).toBe(`${TOKEN}\n`);
    const none = await econsig(['auth', 'token']);
    expect(none.code).toBe(3);
    const json = await econsig(['auth', 'status', '--json'], { env: { ECONSIG_PROFILE: 'homolog' } });
    expect(JSON.parse(json.stdout)).toMatchObject({ profile: 'homolog', baseUrl: null, token: { present: true } });
  });

  it('login --with-token with stdin closed and empty finishes at once with exit 2', async () => {
    const ignored = await econsig(['auth', 'login', '--with-token'], { stdin: 'ignore' });
    expect(ignored.code).toBe(2);
    expect(ignored.stderr).toContain('empty');
    const empty = await econsig(['auth', 'login', '--with-token'], { input: '  \n' });
    expect(empty.code).toBe(2);
    expect(ignored.ms).toBeLessThan(5_000);
  });

  it('login without --with-token and without a terminal is a usage error naming both ways in', async () => {
    const out = await econsig(['auth', 'login']);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('--with-token');
    expect(out.stderr).toContain('ECONSIG_TOKEN');
  });

  it('never shows the token in errors, even with --verbose', async () => {
    const out = await econsig(['auth', 'login', '--with-token', '--verbose'], { input: `${TOKEN} ${TOKEN}` });
    expect(out.code).toBe(2);
    expect(out.stdout + out.stderr).not.toContain('secretpart');
  });

  it('warns about a JWT that has expired', async () => {
    const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const jwt = `${part({ alg: 'HS256' })}.${part({ exp: Math.floor(Date.now() / 1000) - 3600 })}.c2ln`;
    await login(jwt);
    const out = await econsig(['auth', 'status']);
    expect(out.code).toBe(0);
    expect(out.stderr).toMatch(/warning: the token has expired/);
    const json = JSON.parse((await econsig(['auth', 'status', '--json'])).stdout);
    expect(json.token.expired).toBe(true);
    expect(typeof json.token.expiresAt).toBe('string');
  });
});

describe('config', () => {
  it('set, get, unset and list per profile, with sources', async () => {
    expect((await econsig(['config', 'set', 'webhook.port', '5000'])).code).toBe(0);
    expect((await econsig(['config', 'get', 'webhook.port'])).stdout).toBe('5000\n');
    expect(JSON.parse((await econsig(['config', 'get', 'webhook.port', '--json'])).stdout)).toEqual({
      profile: 'default',
      key: 'webhook.port',
      value: 5000,
      source: 'config',
    });
    // Another profile does not see it.
    expect((await econsig(['config', 'get', 'webhook.port', '--profile', 'homolog'])).stdout).toBe('4020\n');

    const list = JSON.parse((await econsig(['config', 'list', '--json'])).stdout);
    expect(list.profile).toBe('default');
    expect(list.settings['webhook.port']).toEqual({ value: 5000, source: 'config' });
    expect(list.settings['base-url']).toEqual({ value: 'http://127.0.0.1:4010', source: 'default' });
    expect(list.settings['webhook.secret']).toEqual({ value: null, source: 'default' });

    expect((await econsig(['config', 'unset', 'webhook.port'])).code).toBe(0);
    expect((await econsig(['config', 'get', 'webhook.port'])).stdout).toBe('4020\n');
  });

  it('masks webhook.secret in set, get and list output', async () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const set = await econsig(['config', 'set', 'webhook.secret', secret]);
    expect(set.code).toBe(0);
    const get = await econsig(['config', 'get', 'webhook.secret']);
    const list = await econsig(['config', 'list']);
    for (const run of [set, get, list]) expect(run.stdout + run.stderr).not.toContain(secret);
    expect(get.stdout).toBe('****LaSw\n');
    expect(list.stdout).toMatch(/webhook\.secret\s+\*\*\*\*LaSw\s+\[config\]/);
  });

  it('path prints home, config file and store', async () => {
    const out = await econsig(['config', 'path', '--json']);
    const dir = join(home, 'econsig');
    expect(JSON.parse(out.stdout)).toEqual({ home: dir, config: join(dir, 'config.json'), store: join(dir, 'econsig.db') });
  });

  it.each([
    [['config', 'set', 'webhook.prot', '1'], 'Did you mean "webhook.port"?'],
    [['config', 'get', 'nope'], 'base-url             service base URL'],
    [['config', 'set', 'webhook.port', '99999'], 'Example: econsig config set webhook.port 4020'],
    [['config', 'set', 'base-url', 'ftp://x'], 'Example: econsig config set base-url https://'],
  ])('%j exits 2 with a clear message', async (args, text) => {
    const out = await econsig(args);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(text);
  });

  it('env beats config and --base-url beats env', async () => {
    await econsig(['config', 'set', 'base-url', 'https://config.example']);
    const env = { ECONSIG_BASE_URL: 'https://env.example' };
    expect(JSON.parse((await econsig(['config', 'get', 'base-url', '--json'], { env })).stdout)).toMatchObject({
      value: 'https://env.example',
      source: 'env',
    });
    const flag = await econsig(['--base-url', 'https://flag.example', 'config', 'get', 'base-url', '--json'], { env });
    expect(JSON.parse(flag.stdout)).toMatchObject({ value: 'https://flag.example', source: 'flag' });
    const plain = await econsig(['config', 'get', 'base-url']);
    expect(plain.stdout).toBe('https://config.example\n');
    const set = await econsig(['config', 'set', 'base-url', 'https://x.example'], { env });
    expect(set.stderr).toContain('ECONSIG_BASE_URL is set');
  });

  it('a bad ECONSIG_BASE_URL is a usage error naming the variable', async () => {
    const out = await econsig(['config', 'list'], { env: { ECONSIG_BASE_URL: 'not-a-url' } });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('ECONSIG_BASE_URL');
  });
});

describe('auth with an unrelated bad setting', () => {
  it('a bad ECONSIG_BASE_URL does not stop login, token or logout (status still names it)', async () => {
    const env = { ECONSIG_BASE_URL: 'not-a-url' };
    const login = await econsig(['auth', 'login', '--with-token'], { env, input: 'tok_unrelated_setting_1234\n' });
    expect(login.code, login.stderr).toBe(0);
    const token = await econsig(['auth', 'token'], { env });
    expect(token.stdout.trim()).toBe('tok_unrelated_setting_1234');
    const status = await econsig(['auth', 'status'], { env });
    expect(status.code).toBe(2);
    expect(status.stderr).toContain('ECONSIG_BASE_URL');
    const logout = await econsig(['auth', 'logout'], { env });
    expect(logout.code).toBe(0);
  });
});
