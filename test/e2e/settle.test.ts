/**
 * `econsig settle` through the built binary (docs/cli-contract.md, "The guard"): a proposal
 * left unknown (a 5xx: the contract may exist) is held by the guard until the operator
 * records what the provider says; a contract makes the same file accepted from the store
 * with no POST, "not sent" frees it for the next run. Requests are counted at a stub.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { cliEnv, parseSubmitJson, startStub, useScratch } from './submit-harness.js';

const scratch = useScratch();
let home: string;
beforeEach(() => {
  ({ home } = scratch);
});

const FILE = 'fixtures/valid/bank-and-pix.json';
const ID = 'PROP-1001';
const ACCEPTED = '0b6c5f3e-9d1a-4c2e-8f00-1a2b3c4d5e6f';

/** A service that answers 500 (the contract may exist) until told to accept. */
async function flakyService() {
  const state = { accept: false };
  const stub = await startStub((_req, res) => {
    if (state.accept) res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ idContrato: ACCEPTED, erros: [] }));
    else res.writeHead(500, { 'content-type': 'application/json' }).end('{"code":500,"message":"falha"}');
  });
  return { stub, state };
}

describe('econsig settle', () => {
  it('--contract: the unknown proposal is then reported from the store as accepted with that contract, no POST; history --outcome unknown and submit name settle', async () => {
    const { stub } = await flakyService();
    const env = cliEnv(home, stub.url, 'tok-abcdef');
    const first = await runCli(['submit', FILE, '--json'], { env });
    expect(first.code, first.stderr).toBe(7);
    expect(parseSubmitJson(first.stdout).results[0]).toMatchObject({ outcome: 'unknown', httpStatus: 500 });
    expect(parseSubmitJson(first.stdout).results[0]!.hint).toContain(`econsig settle ${ID} --contract`);
    expect(stub.requests()).toBe(1);

    const unknown = await runCli(['history', '--outcome', 'unknown'], { env });
    expect(unknown.code, unknown.stderr).toBe(0);
    expect(unknown.stdout).toContain(ID);
    expect(unknown.stderr).toContain('econsig settle <idProposta> --contract <idContrato>');

    // Held until settled: sent again it would make a second contract.
    const held = await runCli(['submit', FILE, '--json'], { env });
    expect(held.code, held.stderr).toBe(5);
    expect(parseSubmitJson(held.stdout).results[0]!.hint).toContain('econsig settle');
    expect(stub.requests()).toBe(1);

    // The same service spelled another way is the same proposal to settle.
    const settled = await runCli(['--base-url', stub.url.replace('127.0.0.1', 'localhost'), 'settle', ID, '--contract', 'C-from-provider', '--json'], { env });
    expect(settled.code, settled.stderr).toBe(0);
    expect(JSON.parse(settled.stdout)).toMatchObject({ ok: true, idProposta: ID, outcome: 'accepted', idContrato: 'C-from-provider', file: FILE });

    const again = await runCli(['submit', FILE, '--json'], { env });
    expect(again.code, again.stderr).toBe(0);
    const result = parseSubmitJson(again.stdout).results[0]!;
    expect(result).toMatchObject({ outcome: 'accepted', idContrato: 'C-from-provider' });
    expect(result.message).toMatch(/from the store/);
    expect(stub.requests()).toBe(1);

    // Nothing unknown any more: exit 4 naming it, a document with its code.
    const nothing = await runCli(['settle', ID, '--not-sent', '--json'], { env });
    expect(nothing.code).toBe(4);
    expect(JSON.parse(nothing.stdout)).toMatchObject({ ok: false, error: { code: 'settle.nothing', exitCode: 4 } });
    expect(nothing.stderr).toContain(ID);
    const human = await runCli(['history', '--proposal', ID], { env });
    expect(human.stdout).toContain('C-from-provider');
    expect(human.stderr).not.toContain('econsig settle');
  });

  it('--not-sent frees the proposal: the next run sends it', async () => {
    const { stub, state } = await flakyService();
    const env = cliEnv(home, stub.url, 'tok-abcdef');
    expect((await runCli(['submit', FILE], { env })).code).toBe(7);
    const settled = await runCli(['settle', ID, '--not-sent'], { env });
    expect(settled.code, settled.stderr).toBe(0);
    expect(settled.stderr).toMatch(new RegExp(`recorded: proposal ${ID} was not sent .*the next run sends it`));
    state.accept = true;
    const sent = await runCli(['submit', FILE, '--json'], { env });
    expect(sent.code, sent.stderr).toBe(0);
    expect(parseSubmitJson(sent.stdout).results[0]).toMatchObject({ outcome: 'accepted', idContrato: ACCEPTED });
    expect(stub.requests()).toBe(2);
  });

  it.each([
    [['settle', ID], /--contract <idContrato> or --not-sent/],
    [['settle', ID, '--contract', 'C-1', '--not-sent'], /--contract <idContrato> or --not-sent/],
    [['settle'], /missing required argument/],
  ])('%j: exit 2', async (args, said) => {
    const run = await runCli(args, { env: { ECONSIG_HOME: home } });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(said);
  });
});

describe('a damaged store', () => {
  it('exit 74; the hint names the risk of a new store (a second contract) and how to keep what can be read', async () => {
    writeFileSync(join(home, 'econsig.db'), 'this is not sqlite, just text long enough to have a header'.repeat(20));
    const run = await runCli(['submit', FILE], { env: cliEnv(home, 'http://127.0.0.1:9', 'tok-abcdef') });
    expect(run.code, run.stderr).toBe(74);
    expect(run.stderr).toMatch(/second contract/);
    expect(run.stderr).toContain(`sqlite3 ${join(home, 'econsig.db')} .recover`);
    expect(run.stderr).toContain('econsig history --json');
  });
});
