/**
 * A person's data through the built binary (issue 23, docs/privacy.md): a batch whose
 * every row carries a worker's CPF as its Pix key, and the webhook deliveries of each,
 * then every output scanned for the CPFs; `store forget` and `store prune` on both engines,
 * then the store's own bytes scanned for the person.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { havePostgres, type PgCluster, startPostgres } from './postgres.js';
import { runCli } from './run-cli.js';
import { cliEnv, parseSubmitJson, readFixture, startCountedSandbox, type CountedSandbox, useScratch } from './submit-harness.js';
import { killWatches, startWatch } from './watch-process.js';

interface Person {
  cpf: string;
  punctuated: string;
  name: string;
  account: string;
  idProposta: string;
  file: string;
}

/** A CPF with its check digits (Receita Federal's rule), from nine digits. */
function cpfOf(nine: string): string {
  const digit = (digits: string): number => {
    const sum = [...digits].reduce((total, d, i) => total + Number(d) * (digits.length + 1 - i), 0);
    return (sum * 10) % 11 % 10;
  };
  const first = digit(nine);
  return `${nine}${first}${digit(`${nine}${first}`)}`;
}

/** `n` workers, each with a proposal, a Pix key that is their CPF and an account of their own; every tenth denied, its reason quoting the CPF. */
function people(n: number): Person[] {
  return Array.from({ length: n }, (_, i) => {
    const cpf = cpfOf(String(370_000_000 + i * 7_919).padStart(9, '0'));
    const name = `Fulana${String.fromCharCode(65 + (i % 26))}${i} Tesoura`;
    return {
      cpf,
      punctuated: `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`,
      name,
      account: `${7_700_000 + i}-${i % 10}`,
      idProposta: `PROP-P${1000 + i}`,
      file: `${name.toLowerCase().replace(/\s+/g, '-')}.json`,
    };
  });
}

function catalogue(all: readonly Person[]): object {
  return {
    workers: all.map((p) => ({ cpf: p.cpf, name: p.name })),
    proposals: all.map((p, i) =>
      i % 10 === 9 ? { idProposta: p.idProposta, workerCpf: p.cpf, outcome: 'denied', reason: `sem margem para o CPF ${p.punctuated}` } : { idProposta: p.idProposta, workerCpf: p.cpf, outcome: 'approved' },
    ),
    pixKeys: all.map((p) => ({ key: p.cpf, workerCpf: p.cpf, contaBancaria: { compe: '341', agencia: '0042', conta: p.account, tipo: 'CORRENTE' } })),
  };
}

/** A submission as a clerk types it: the Pix key punctuated (normalisation says so, quoting it). */
function submission(p: Person): Record<string, any> {
  return { ...readFixture('valid/pix-only.json'), idProposta: p.idProposta, contaBancaria: { chavePix: p.punctuated } };
}

/** Which of the people's CPFs (either form) a text holds. */
const cpfsIn = (text: string, all: readonly Person[]): string[] => all.filter((p) => text.includes(p.cpf) || text.includes(p.punctuated)).map((p) => p.cpf);

const scratch = useScratch();
afterEach(() => killWatches());

/**
 * The batch: `validate` of one file per person (people's text), a receiver (`watch --json`,
 * its JSON logs on stderr) on `env`'s store, the sandbox sending it each result, `submit
 * --json` of the files, then `history --json`. Returns every output, and the sandbox (its
 * requests counted).
 */
async function runBatch(all: readonly Person[], env: Record<string, string | undefined>, flags: string[]): Promise<{ outputs: Record<string, string>; sandbox: CountedSandbox; files: string }> {
  const files = join(scratch.dir, 'lote');
  mkdirSync(files, { recursive: true });
  for (const p of all) writeFileSync(join(files, p.file), JSON.stringify(submission(p)));
  const cataloguePath = join(scratch.dir, 'catalogue.json');
  writeFileSync(cataloguePath, JSON.stringify(catalogue(all)));

  const validate = await runCli(['validate', files, ...flags], { env, timeoutMs: 60_000 });
  expect(validate.code, validate.stderr).toBe(0);
  const receiver = startWatch(['--port', '0', '--json', ...flags], env);
  const sandbox = await startCountedSandbox({ delayMs: 20, webhookUrl: await receiver.url(), catalogue: cataloguePath });
  const cli = cliEnv(env.ECONSIG_HOME as string, sandbox.sandbox.url, sandbox.sandbox.token);
  const submit = await runCli(['submit', files, '--json', '--concurrency', '8', ...flags], { env: { ...env, ...cli }, timeoutMs: 120_000 });
  expect(submit.code, submit.stderr).toBe(0);
  expect(parseSubmitJson(submit.stdout).results).toHaveLength(all.length);
  // One result line per delivery, after the listening line: wait for each, then stop the receiver.
  const results: string[] = [];
  while (results.length < all.length) {
    const line = await receiver.nextLine();
    if ((JSON.parse(line) as { event: string }).event === 'result') results.push(line);
  }
  expect(await receiver.stop()).toBe(0);
  const history = await runCli(['history', '--json', '--limit', String(all.length), ...flags], { env: { ...env, ...cli } });
  expect(history.code, history.stderr).toBe(0);
  const outputs = {
    'validate stderr': validate.stderr,
    'submit stdout (--json)': submit.stdout,
    'submit stderr': submit.stderr,
    'watch stdout (--json)': receiver.lines.join('\n'),
    "watch stderr (the receiver's JSON logs)": receiver.stderr(),
    'history --json': history.stdout,
  };
  return { outputs, sandbox, files };
}

describe("a person's data in what econsig prints (SQLite store)", () => {
  const all = people(100);

  it('a batch of 100 and its 100 deliveries: no full CPF in stderr, --json or the JSON logs; --reveal shows them', async () => {
    const masked = await runBatch(all, { ECONSIG_HOME: scratch.home }, []);
    for (const [where, text] of Object.entries(masked.outputs)) expect(cpfsIn(text, all), where).toEqual([]);
    // The masks are there instead: each CPF as ***.456.789-**.
    expect(masked.outputs['validate stderr']).toContain(`***.${all[0]!.cpf.slice(3, 6)}.${all[0]!.cpf.slice(6, 9)}-** → ***.`);
    expect(masked.outputs['watch stdout (--json)']).toContain('****');

    const revealed = await runBatch(all, { ECONSIG_HOME: join(scratch.dir, 'home-reveal') }, ['--reveal']);
    for (const where of ['validate stderr', 'submit stdout (--json)', 'watch stdout (--json)']) expect(cpfsIn(revealed.outputs[where]!, all), where).toHaveLength(all.length);
    expect(cpfsIn(revealed.outputs['history --json']!, all)).toHaveLength(all.length / 10);
  }, 240_000);

  it('store forget leaves none of the person in the file; a rerun of the proposal is still refused by the guard; prune drops what is old', async () => {
    const few = all.slice(0, 10);
    const { sandbox, files } = await runBatch(few, { ECONSIG_HOME: scratch.home }, []);
    const [approved, other, denied] = [few[0]!, few[1]!, few[9]!]; // the tenth denied, its reason quoting the CPF
    const db = join(scratch.home, 'econsig.db');
    const fileBytes = (): string => [db, `${db}-wal`].filter(existsSync).map((f) => readFileSync(f).toString('latin1')).join('');
    const env = { ECONSIG_HOME: scratch.home };
    expect(fileBytes()).toContain(denied.cpf);

    const dry = await runCli(['store', 'forget', '--cpf', denied.punctuated, '--dry-run', '--json'], { env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ dryRun: true, identifier: `***.${denied.cpf.slice(3, 6)}.${denied.cpf.slice(6, 9)}-**`, proposals: [denied.idProposta], deletion: null });
    expect(fileBytes()).toContain(denied.cpf);

    const byCpf = await runCli(['store', 'forget', '--cpf', denied.cpf], { env });
    expect(byCpf.code, byCpf.stderr).toBe(0);
    expect(byCpf.stderr).toContain(denied.idProposta);
    expect(cpfsIn(byCpf.stderr, few)).toEqual([]);
    const byProposal = await runCli(['store', 'forget', '--proposal', approved.idProposta], { env });
    expect(byProposal.code, byProposal.stderr).toBe(0);
    // The file as a copy or a backup would hold it, the WAL checkpointed into it first.
    const check = new DatabaseSync(db);
    check.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    check.close();
    const bytes = fileBytes();
    for (const p of [denied, approved]) for (const gone of [p.cpf, p.punctuated, p.name, p.file, p.account]) expect(bytes, gone).not.toContain(gone);
    expect(bytes).toContain(other.cpf);

    // The guard still holds both: the same denied body is answered from the store, the
    // approved proposal with other data is refused; nothing is sent.
    const sent = sandbox.requests();
    const send = { ...env, ...cliEnv(scratch.home, sandbox.sandbox.url, sandbox.sandbox.token) };
    const again = await runCli(['submit', join(files, denied.file), '--json'], { env: send });
    expect(again.code, again.stderr).toBe(8);
    expect(parseSubmitJson(again.stdout).results[0]).toMatchObject({ outcome: 'denied', result: { outcome: 'denied', source: 'store' } });
    writeFileSync(join(scratch.dir, 'changed.json'), JSON.stringify({ ...submission(approved), pessoa: { ...submission(approved).pessoa, email: 'outra@example.com' } }));
    const changed = await runCli(['submit', join(scratch.dir, 'changed.json'), '--json'], { env: send });
    expect(changed.code, changed.stderr).toBe(5);
    expect(parseSubmitJson(changed.stdout).results[0]).toMatchObject({ outcome: 'skipped' });
    expect(sandbox.requests()).toBe(sent);

    const prune = await runCli(['store', 'prune', '--before', '0s', '--json'], { env });
    expect(prune.code, prune.stderr).toBe(0);
    expect(JSON.parse(prune.stdout)).toMatchObject({ ok: true, deleted: { deliveries: few.length, submissions: 0 } });
    const pruned = new DatabaseSync(db);
    expect(pruned.prepare('SELECT count(*) AS n FROM deliveries').get()).toEqual({ n: 0 });
    expect(pruned.prepare('SELECT count(*) AS n FROM deletions').get()).toEqual({ n: 2 });
    pruned.close();
    // Every proposal is still held: none of the batch goes again.
    const rerun = await runCli(['submit', files, '--json'], { env: send });
    expect(parseSubmitJson(rerun.stdout).results.map((r) => r.outcome).sort()).toEqual([...Array<string>(9).fill('approved'), 'denied']);
    expect(sandbox.requests()).toBe(sent);
  }, 120_000);
});

describe.skipIf(!havePostgres())("a person's data in the team store (PostgreSQL)", () => {
  let pg: PgCluster;
  beforeAll(async () => {
    pg = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await pg?.stop();
  });

  it('store forget --cpf leaves none of the person in pg_dump; the guard still refuses; prune drops what is old', async () => {
    const few = people(10);
    const url = await pg.createDatabase('privacy');
    const env = { ECONSIG_HOME: scratch.home, ECONSIG_DATABASE_URL: url };
    const { sandbox, files } = await runBatch(few, env, []);
    const person = few[9]!;
    expect(await pg.dump('privacy')).toContain(person.cpf);

    const forget = await runCli(['store', 'forget', '--cpf', person.punctuated, '--json'], { env, timeoutMs: 30_000 });
    expect(forget.code, forget.stderr).toBe(0);
    expect(JSON.parse(forget.stdout)).toMatchObject({ proposals: [person.idProposta], deletion: { kind: 'cpf' } });
    const dump = await pg.dump('privacy');
    for (const gone of [person.cpf, person.punctuated, person.name, person.file, person.account]) expect(dump, gone).not.toContain(gone);
    expect(dump).toContain(few[0]!.cpf);

    const sent = sandbox.requests();
    const again = await runCli(['submit', join(files, person.file), '--json'], { env: { ...env, ...cliEnv(scratch.home, sandbox.sandbox.url, sandbox.sandbox.token) } });
    expect(again.code, again.stderr).toBe(8);
    expect(sandbox.requests()).toBe(sent);

    const prune = await runCli(['store', 'prune', '--before', '0s', '--json'], { env });
    expect(prune.code, prune.stderr).toBe(0);
    expect(JSON.parse(prune.stdout)).toMatchObject({ deleted: { deliveries: few.length } });
    expect(Number(await pg.psql('SELECT count(*) FROM econsig_deliveries', 'privacy'))).toBe(0);
    expect(Number(await pg.psql('SELECT count(*) FROM econsig_submissions', 'privacy'))).toBe(few.length);
  }, 120_000);
});
