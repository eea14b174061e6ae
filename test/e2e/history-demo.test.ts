/**
 * `econsig history` filters over a store written by real submits, and `econsig demo`
 * (sandbox and listener in-process, no setup) through the built binary.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { type CountedSandbox, cliEnv, freePort, parseSubmitJson, startCountedSandbox, useScratch } from './submit-harness.js';

let home: string;
let sbx: CountedSandbox | undefined;
const scratch = useScratch(); // temp home and folder; every sandbox and stub closed after each test
beforeEach(() => {
  ({ home } = scratch);
  sbx = undefined;
});

interface HistoryDoc {
  entries: Array<{
    idProposta: string;
    idContrato: string | null;
    file: string | null;
    outcome: string;
    httpStatus: number | null;
    sentAt: string;
    result: { outcome: string; reason: string | null } | null;
  }>;
}

const historyJson = async (args: string[]): Promise<HistoryDoc> => {
  const run = await runCli(['history', '--json', ...args], { env: { ECONSIG_HOME: home } });
  expect(run.code, run.stderr).toBe(0);
  const lines = run.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] as string) as HistoryDoc;
};

describe('history', () => {
  it('an empty store: exit 0, no entries', async () => {
    expect((await historyJson([])).entries).toEqual([]);
  });

  it('--proposal and --contract filter, newest first, with the --wait result', async () => {
    const port = await freePort();
    sbx = await startCountedSandbox({ delayMs: 200, webhookUrl: `http://127.0.0.1:${port}/webhook` });
    const env = cliEnv(home, sbx.sandbox.url, sbx.sandbox.token);
    const approved = await runCli(['submit', 'fixtures/valid/bank-and-pix.json', '--wait', '--listen', `127.0.0.1:${port}`, '--timeout', '10', '--json'], { env });
    expect(approved.code, approved.stderr).toBe(0);
    const denied = await runCli(['submit', 'fixtures/valid/bank-only.json', '--json'], { env });
    expect(denied.code, denied.stderr).toBe(0);
    const idApproved = parseSubmitJson(approved.stdout).results[0]!.idContrato!;
    const idDenied = parseSubmitJson(denied.stdout).results[0]!.idContrato!;

    const all = await historyJson([]);
    expect(all.entries.map((e) => e.idProposta)).toEqual(['PROP-1002', 'PROP-1001']);
    expect(Date.parse(all.entries[0]!.sentAt)).toBeGreaterThanOrEqual(Date.parse(all.entries[1]!.sentAt));

    const byProposal = await historyJson(['--proposal', 'PROP-1001']);
    expect(byProposal.entries).toHaveLength(1);
    expect(byProposal.entries[0]).toMatchObject({
      idProposta: 'PROP-1001',
      idContrato: idApproved,
      file: 'fixtures/valid/bank-and-pix.json',
      outcome: 'accepted',
      httpStatus: 202,
      result: { outcome: 'approved' },
    });

    const byContract = await historyJson(['--contract', idDenied]);
    expect(byContract.entries.map((e) => [e.idProposta, e.idContrato])).toEqual([['PROP-1002', idDenied]]);
    expect(byContract.entries[0]!.result).toBeNull(); // submitted without --wait

    expect((await historyJson(['--proposal', 'PROP-9999'])).entries).toEqual([]);
    expect((await historyJson(['--proposal', 'PROP-1001', '--contract', idDenied])).entries).toEqual([]);

    const human = await runCli(['history', '--proposal', 'PROP-1001'], { env: { ECONSIG_HOME: home } });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(idApproved);
    expect(human.stdout).toMatch(/approved/);
    expect(human.stdout).not.toContain('PROP-1002');
  });
});

describe('demo', () => {
  it('econsig demo: exit 0 within a few seconds, stderr shows approved', async () => {
    const started = Date.now();
    const run = await runCli(['demo'], { env: { ECONSIG_HOME: home } });
    expect(run.code, run.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(run.stderr).toMatch(/approved/);
    expect(run.stderr).toMatch(/Demo complete/);
  });

  it('econsig demo --json: one document with results[0].outcome approved', async () => {
    const run = await runCli(['demo', '--json', '--delay', '0.2'], { env: { ECONSIG_HOME: home } });
    expect(run.code, run.stderr).toBe(0);
    const doc = parseSubmitJson(run.stdout);
    expect(doc.ok).toBe(true);
    expect(doc.results[0]).toMatchObject({ outcome: 'approved', httpStatus: 202, result: { outcome: 'approved' } });
    expect(doc.results[0]!.idContrato).toMatch(/^[0-9a-f-]{36}$/);
  });
});
