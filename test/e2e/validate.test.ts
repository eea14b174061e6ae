import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { binPath, repoRoot, runCli, tempHome } from './run-cli.js';
import { waitFor } from '../wait-for.js';

const { home, cleanup } = tempHome();
afterAll(cleanup);

interface ValidateDoc {
  ok: boolean;
  files: { file: string; ok: boolean; errors: { path: string; message: string }[]; warnings: { path: string; message: string }[] }[];
}

const env = { ECONSIG_HOME: home };

describe('econsig validate (built binary)', () => {
  it('accepts the bundled valid examples: exit 0, --json shape of the contract', async () => {
    const r = await runCli(['validate', 'fixtures/valid', '--json'], { env });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as ValidateDoc;
    expect(doc.ok).toBe(true);
    expect(doc.files.map((f) => f.file)).toEqual([
      'fixtures/valid/bank-and-pix.json',
      'fixtures/valid/bank-only.json',
      'fixtures/valid/pix-only.json',
    ]);
    for (const file of doc.files) expect(Object.keys(file).sort()).toEqual(['errors', 'file', 'ok', 'warnings']);
    expect(r.stderr).toBe('');
  });

  it('reports every invalid fixture in one run, each with at least one dotted-path error, exit 1', async () => {
    const names = readdirSync(join(repoRoot, 'fixtures/invalid')).sort();
    const r = await runCli(['validate', 'fixtures/invalid', '--json'], { env });
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as ValidateDoc;
    expect(doc.ok).toBe(false);
    expect(doc.files).toHaveLength(names.length);
    for (const file of doc.files) {
      expect(file.ok, file.file).toBe(false);
      expect(file.errors.length, file.file).toBeGreaterThan(0);
    }
    const cep = doc.files.find((f) => f.file.endsWith('cep-too-short.json'));
    expect(cep?.errors).toEqual([{ path: 'pessoa.endereco.cep', message: 'must be 8 digits, e.g. "01310100"' }]);
  });

  it('human output names file, path and message on stderr; stdout stays empty', async () => {
    const r = await runCli(['validate', 'fixtures/invalid/bank-data-incomplete.json'], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('fixtures/invalid/bank-data-incomplete.json');
    expect(r.stderr).toContain('contaBancaria.conta: is required');
    expect(r.stderr).toContain('1 file: 0 valid, 1 invalid');
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // never a stack trace
  });

  it('normalises with warnings: exit 0, but 1 with --strict', async () => {
    const loose = await runCli(['validate', 'fixtures/warnings/needs-normalising.json', '--json'], { env });
    expect(loose.code).toBe(0);
    const doc = JSON.parse(loose.stdout) as ValidateDoc;
    const paths = doc.files[0]?.warnings.map((w) => w.path) ?? [];
    expect(paths).toEqual(expect.arrayContaining(['pessoa.endereco.cep', 'contaBancaria.agencia', 'observacao']));
    const strict = await runCli(['validate', 'fixtures/warnings/needs-normalising.json', '--strict'], { env });
    expect(strict.code).toBe(1);
  });

  it('reads stdin with -', async () => {
    const input = readFileSync(join(repoRoot, 'fixtures/valid/pix-only.json'), 'utf8');
    const r = await runCli(['validate', '-', '--json'], { env, input });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as ValidateDoc).files[0]?.file).toBe('-');
  });

  it('garbage in gets a clear answer and the documented code', async () => {
    const dir = join(home, 'garbage');
    mkdirSync(join(dir, 'empty-folder'), { recursive: true });
    writeFileSync(join(dir, 'huge.json'), Buffer.alloc(2 * 1024 * 1024, 0x20));
    const cases: Array<[string[], number, RegExp]> = [
      [['validate', join(dir, 'missing.json')], 2, /does not exist/],
      [['validate', join(dir, 'empty-folder')], 2, /has no \*\.json, \*\.csv or \*\.xlsx files/],
      [['validate', join(dir, 'huge.json')], 2, /at most 1 MiB/],
      [['validate', 'fixtures/invalid/not-json.json'], 1, /not valid JSON at line 4, column 1/],
      [['validate'], 2, /no file to validate/],
      [['validate', '--bogus', 'x.json'], 2, /unknown option '--bogus'/],
    ];
    for (const [args, code, message] of cases) {
      const r = await runCli(args, { env });
      expect(r.code, args.join(' ')).toBe(code);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
  });

  it('a batch exits with the code of the first failing file in input order', async () => {
    const r = await runCli(['validate', 'fixtures/valid/pix-only.json', join(home, 'nope.json'), 'fixtures/invalid/empty.json'], { env });
    expect(r.code).toBe(2);
    const r2 = await runCli(['validate', 'fixtures/invalid/empty.json', join(home, 'nope.json')], { env });
    expect(r2.code).toBe(1);
  });
});

describe('validate leaves as soon as its output is written, none of it lost', () => {
  it('a large --json document read slowly through a pipe arrives whole, then the exit code', async () => {
    const dir = join(home, 'many');
    mkdirSync(dir, { recursive: true });
    const base = readFileSync(join(repoRoot, 'fixtures/valid/bank-and-pix.json'), 'utf8');
    for (let i = 0; i < 1_500; i++) writeFileSync(join(dir, `p${String(i).padStart(4, '0')}.json`), base);
    const child = spawn(process.execPath, [binPath, 'validate', dir, '--json'], {
      env: { PATH: process.env.PATH, CI: '1', NO_COLOR: '1', ECONSIG_HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Read nothing until our side's buffer is full and reading has stopped: the rest of the
    // output (about 400 KB) then waits in the pipe.
    child.stdout.pause();
    await waitFor(() => child.stdout.readableLength >= child.stdout.readableHighWaterMark, 10_000);
    expect(child.exitCode).toBeNull();
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const doc = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ValidateDoc;
    expect(code).toBe(0);
    expect(doc.files).toHaveLength(1_500);
    expect(Buffer.concat(chunks).length).toBeGreaterThan(300_000);
  });
});

describe('econsig schema, --help, --version', () => {
  it('prints a JSON Schema generated from the zod schemas', async () => {
    const r = await runCli(['schema'], { env });
    expect(r.code).toBe(0);
    const schema = JSON.parse(r.stdout) as { required: string[]; properties: Record<string, { properties?: Record<string, unknown> }> };
    expect(schema.required).toEqual(['idProposta', 'pessoa', 'contaBancaria']);
    expect(Object.keys(schema.properties.contaBancaria?.properties ?? {})).toEqual(['compe', 'agencia', 'conta', 'tipo', 'chavePix']);
  });

  it('--help lists commands with examples, exit 0; --version prints the package version', async () => {
    const help = await runCli(['--help'], { env });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Examples:');
    for (const name of ['validate', 'submit', 'watch', 'sandbox', 'demo', 'auth', 'config', 'history', 'schema']) {
      expect(help.stdout).toContain(name);
    }
    const sub = await runCli(['submit', '-h'], { env });
    expect(sub.code).toBe(0);
    expect(sub.stdout).toContain('--dry-run');
    const version = await runCli(['--version'], { env });
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    // The version on the first line (what a script reads), then the Node it runs on (issue 24).
    expect(version.stdout).toBe(`${pkg.version}\nNode ${process.versions.node} (${process.platform} ${process.arch})\n`);
    expect((await runCli(['version'], { env })).stdout).toBe(version.stdout);
    const v = await runCli(['-v'], { env });
    expect(v.code).toBe(2);
    expect(v.stderr).toContain('The version is -V, --version or econsig version');
  });

  it('no command: help on stderr and exit 2', async () => {
    const r = await runCli([], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Usage: econsig');
  });

  it('an unknown flag with --json: exit 2, the message on stderr, the one error document on stdout', async () => {
    const r = await runCli(['validate', 'fixtures/valid', '--no-such-flag', '--json'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '--no-such-flag'");
    expect(JSON.parse(r.stdout)).toEqual({
      ok: false,
      error: { message: "unknown option '--no-such-flag'", cause: null, hint: 'See econsig --help.', exitCode: 2, code: 'commander.unknownOption' },
    });
  });

  it('a node that forbids generated code gets the same answers (the fast path steps aside for zod)', async () => {
    const args = ['validate', 'fixtures/valid', 'fixtures/invalid', 'fixtures/warnings', '--json'];
    const normal = await runCli(args, { env });
    const forbidden = spawnSync(process.execPath, ['--disallow-code-generation-from-strings', binPath, ...args], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, CI: '1', NO_COLOR: '1', ECONSIG_HOME: home },
    });
    expect(forbidden.stderr).toBe(normal.stderr);
    expect(forbidden.status).toBe(normal.code);
    expect(forbidden.stdout).toBe(normal.stdout);
    expect((JSON.parse(normal.stdout) as ValidateDoc).files.length).toBeGreaterThan(30);
  });
});
