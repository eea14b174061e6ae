/**
 * Runs (issue 26) through the built binary: a submit is a run with an id said at its start
 * and end, in --json and in the JUnit report; `runs`, `runs show` (the ledger balanced, what
 * needs a person), the reports (HTML opened in headless Chromium, xlsx read back, Markdown
 * appended to GITHUB_STEP_SUMMARY), `runs wait` from another home on a team store, and two
 * identical runs started together: each proposal sent once, neither exits 5.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../../src/domain/report.js';
import { havePostgres, type PgCluster, startPostgres } from './postgres.js';
import { repoRoot, runCli } from './run-cli.js';
import { bankOnly, cliEnv, parseSubmitJson, postsByProposal, startCountedSandbox, useScratch, writeJson } from './submit-harness.js';
import { killWatches, startWatch } from './watch-process.js';

const scratch = useScratch();
const RUN_ID = /^r-\d{8}-\d{4}-[0-9a-f]{3}$/;
const CHROMIUM = '/usr/bin/chromium';

/** 4 approved and 2 denied proposals the sandbox knows; PROP-6999 it does not (404). */
const APPROVED = ['PROP-6001', 'PROP-6002', 'PROP-6003', 'PROP-6004'];
const DENIED = ['PROP-6005', 'PROP-6006'];
const catalogue = {
  workers: [...APPROVED, ...DENIED].map((_, i) => ({ cpf: String(91_000_000_000 + i), name: `Worker ${i}` })),
  proposals: [
    ...APPROVED.map((idProposta, i) => ({ idProposta, workerCpf: String(91_000_000_000 + i), outcome: 'approved' as const })),
    ...DENIED.map((idProposta, i) => ({ idProposta, workerCpf: String(91_000_000_004 + i), outcome: 'denied' as const, reason: 'Margem consignável insuficiente' })),
  ],
  pixKeys: [],
};

/** A folder of 9 inputs: 6 the sandbox knows, 1 it does not, 2 invalid files. */
function batch(dir: string): string {
  const folder = join(dir, 'lote');
  mkdirSync(folder);
  for (const id of [...APPROVED, ...DENIED, 'PROP-6999']) writeJson(folder, `${id}.json`, bankOnly(id));
  copyFileSync(join(repoRoot, 'fixtures', 'invalid', 'cep-all-zeros.json'), join(folder, 'z-cep.json'));
  copyFileSync(join(repoRoot, 'fixtures', 'invalid', 'not-json.json'), join(folder, 'z-not-json.json'));
  return folder;
}


const balances = (l: Ledger): boolean =>
  l.inputs === l.invalid + l.notSent + l.skipped + l.accepted + l.rejected + l.notFound + l.unknown && l.accepted === l.approved + l.denied + l.cancelled + l.waiting;

/** Chromium's DOM of a file, headless, offline, with a profile of its own. */
function dumpDom(file: string, profile: string): Promise<string> {
  const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
  return new Promise((resolve, reject) =>
    execFile(CHROMIUM, [...args, `--user-data-dir=${profile}`, '--dump-dom', `file://${file}`], { timeout: 30_000 }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
  );
}

afterEach(() => killWatches());

describe('a submit is a run (SQLite)', () => {
  it('its id at start and end, in --json and JUnit; runs lists it; runs wait exits 8 once the last result lands; runs show balances and names the denied; GITHUB_STEP_SUMMARY appended after earlier text', async () => {
    // The receiver of this home records the sandbox's results; the submit itself does not wait.
    const watch = startWatch(['--port', '0', '--json'], { ECONSIG_HOME: scratch.home });
    const sbx = await startCountedSandbox({ delayMs: 200, catalogue, webhookUrl: await watch.url() });
    const folder = batch(scratch.dir);
    const summary = join(scratch.dir, 'summary.md');
    writeFileSync(summary, '## an earlier step\n');
    const junit = join(scratch.dir, 'junit.xml');
    const env = { ...cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token), GITHUB_STEP_SUMMARY: summary, GITHUB_RUN_ID: '4242' };
    const submit = await runCli(['submit', folder, '--json', '--report', junit], { env, timeoutMs: 30_000 });
    expect(submit.code, submit.stderr).toBe(4);
    const doc = parseSubmitJson(submit.stdout) as ReturnType<typeof parseSubmitJson> & { runId: string };
    expect(doc.runId).toMatch(RUN_ID);
    expect(submit.stderr.split(doc.runId).length - 1, submit.stderr).toBeGreaterThanOrEqual(2);
    expect(readFileSync(junit, 'utf8')).toContain(`<property name="econsig.runId" value="${doc.runId}"/>`);
    expect(readFileSync(summary, 'utf8')).toMatch(/^## an earlier step\n### econsig run r-/);

    const listed = await runCli(['runs', '--json'], { env });
    expect(listed.code, listed.stderr).toBe(0);
    const runs = (JSON.parse(listed.stdout) as { ok: boolean; runs: Array<{ id: string; ledger: Ledger; profile: string; baseUrl: string }> }).runs;
    expect(runs.map((r) => r.id)).toEqual([doc.runId]);
    expect(runs[0]).toMatchObject({ profile: 'default', baseUrl: sbx.sandbox.url });
    expect(runs[0]!.ledger).toMatchObject({ inputs: 9, invalid: 2, notFound: 1, accepted: 6 });
    const later = await runCli(['runs', '--since', '2099-01-01', '--json'], { env });
    expect(JSON.parse(later.stdout)).toEqual({ ok: true, runs: [] });
    expect((await runCli(['runs', '--since', 'yesterday'], { env })).code).toBe(2);

    // Later (another CI step): wait for what is still due, from the store; 8, a result was denied.
    const waited = await runCli(['runs', 'wait', 'last', '--timeout', '20', '--json'], { env, timeoutMs: 30_000 });
    expect(waited.code, waited.stderr).toBe(8);
    const run = (JSON.parse(waited.stdout) as { run: { id: string; command: string; by: { ci: string | null }; ledger: Ledger; inputs: Array<{ outcome: string; idProposta: string | null; result: string | null; reason: string | null }> } }).run;
    expect(run.id).toBe(doc.runId);
    expect(run.ledger).toEqual({ inputs: 9, invalid: 2, notSent: 0, skipped: 0, accepted: 6, rejected: 0, notFound: 1, unknown: 0, approved: 4, denied: 2, cancelled: 0, waiting: 0 });
    expect(balances(run.ledger)).toBe(true);
    expect(run.command).toContain('submit');
    expect(run.by.ci).toBe('github:4242');
    expect(run.inputs.filter((i) => i.result === 'denied').map((i) => [i.idProposta, i.reason])).toEqual(DENIED.map((id) => [id, 'Margem consignável insuficiente']));
    expect(run.inputs.filter((i) => i.outcome === 'invalid').map((i) => i.reason)).toEqual(expect.arrayContaining([expect.stringContaining('cep')]));
    const appended = readFileSync(summary, 'utf8');
    expect(appended.split('### econsig run').length - 1).toBe(2);
    expect(appended).toContain('| denied | 2 |');

    const shown = await runCli(['runs', 'show', doc.runId], { env });
    expect(shown.code, shown.stderr).toBe(8);
    expect(shown.stdout).toContain('9 inputs = 2 invalid + 0 not sent + 0 skipped + 6 accepted + 0 rejected + 1 not found + 0 unknown');
    expect(shown.stdout).toContain('the ledger balances');
    expect(shown.stdout).toMatch(/denied or cancelled \(2\)[\s\S]*PROP-6005[^\n]*Margem consignável insuficiente/);
    // People read local time with its offset (issue 24); the ISO instant stays in --json.
    const localWithOffset = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [+-]\d{2}:\d{2}/;
    expect(shown.stdout).toMatch(localWithOffset);
    expect(shown.stdout).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
    const list = await runCli(['runs'], { env });
    expect(list.stdout).toMatch(localWithOffset);
    expect(list.stdout).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);

  }, 30_000);
});

type SqliteModule = typeof import('../../src/record/sqlite.js');

/** A run of 9 inputs written into `home`'s store through the built record (as a submit and a receiver would have). */
async function seedRun(home: string): Promise<string> {
  const { SqliteStore } = (await import(new URL('../../dist/record/sqlite.js', import.meta.url).href)) as SqliteModule;
  const store = await SqliteStore.open(home);
  const id = 'r-20261127-1700-a3f';
  const now = new Date().toISOString();
  await store.startRun({ id, startedAt: now, command: 'econsig submit lote/', profile: 'default', baseUrl: 'http://127.0.0.1:4010', service: 'http://127.0.0.1:4010', lang: 'en', by: { user: 'ana', host: 'desk', ci: null }, pid: 1, leaseUntil: now });
  const inputs = [];
  for (const [i, idProposta] of [...APPROVED, ...DENIED, 'PROP-6999'].entries()) {
    const claim = await store.claim({ idProposta, service: 'http://127.0.0.1:4010', baseUrl: 'http://127.0.0.1:4010', bodyHash: 'h', file: `lote/${idProposta}.json`, profile: 'default', at: now, force: false, run: id });
    if (claim.kind !== 'claimed') throw new Error('not claimed');
    const found = idProposta === 'PROP-6999';
    const contract = `C-${i}`;
    await store.recordAnswer(claim.ref, { at: now, outcome: found ? 'not_found' : 'accepted', httpStatus: found ? 404 : 202, idContrato: found ? null : contract, erros: found ? [{ codigo: 'SVC_R00404', msg: 'Proposta não encontrada.' }] : [], message: null });
    if (!found) await store.recordResult({ idContrato: contract, at: now, outcome: DENIED.includes(idProposta) ? 'denied' : 'approved', status: null, reason: DENIED.includes(idProposta) ? 'Margem consignável insuficiente' : null });
    inputs.push({ file: `lote/${idProposta}.json`, row: null, idProposta, outcome: 'sent', ref: claim.ref, reason: null });
  }
  for (const file of ['lote/z-cep.json', 'lote/z-not-json.json']) inputs.push({ file, row: null, idProposta: null, outcome: 'invalid', ref: null, reason: 'pessoa.endereco.cep: not a real CEP' });
  await store.recordRunInputs(id, inputs);
  await store.endRun(id, now);
  await store.close();
  return id;
}

describe('runs show --report', () => {
  it('HTML opened in headless Chromium shows the chart and its counts, self-contained; xlsx read back, summary first; Markdown', async () => {
    const env = { ECONSIG_HOME: scratch.home };
    const id = await seedRun(scratch.home);
    // Reports: HTML opened in headless Chromium shows the chart and its counts; xlsx read back; Markdown.
    const html = join(scratch.dir, 'ledger.html');
    const xlsx = join(scratch.dir, 'ledger.xlsx');
    const md = join(scratch.dir, 'ledger.md');
    for (const file of [html, xlsx, md]) expect((await runCli(['runs', 'show', id, '--report', file], { env })).code).toBe(8);
    const profile = mkdtempSync(join(tmpdir(), 'econsig-chromium-'));
    try {
      const dom = await dumpDom(html, profile);
      expect(dom).toMatch(/<svg id="ledger-chart"[^>]*data-inputs="9"/);
      expect(dom).toContain('data-part="approved" data-count="4"');
      expect(dom).toContain('data-part="denied" data-count="2"');
      expect(dom).toContain('data-part="notFound" data-count="1"');
      expect(dom).toContain('data-part="invalid" data-count="2"');
      expect(dom).toContain('Margem consignável insuficiente');
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
    expect(readFileSync(html, 'utf8')).not.toMatch(/src=|href=|@import|url\(/);
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(xlsx);
    const first = book.worksheets[0]!;
    expect(first.name).toBe('Summary');
    const counts = new Map<string, unknown>();
    first.eachRow((row) => counts.set(String(row.getCell(1).value), row.getCell(2).value));
    expect([counts.get('inputs'), counts.get('approved'), counts.get('denied'), counts.get('not found')]).toEqual([9, 4, 2, 1]);
    expect(book.worksheets[1]!.rowCount).toBe(10);
    expect(readFileSync(md, 'utf8')).toContain('| invalid | 2 |');
  }, 30_000);
});

describe('runs show and runs wait on a written run', () => {
  it('a ledger that does not balance is a bug: exit 70, said as such; runs wait exits 9 with results still due at the timeout; an unknown run is exit 2', async () => {
    const env = { ECONSIG_HOME: scratch.home };
    const id = await seedRun(scratch.home);
    const { SqliteStore } = (await import(new URL('../../dist/record/sqlite.js', import.meta.url).href)) as SqliteModule;
    const store = await SqliteStore.open(scratch.home);
    const now = new Date().toISOString();
    // A later run, one contract whose result has not come.
    const later = 'r-20261127-1800-b00';
    await store.startRun({ id: later, startedAt: now, command: 'econsig submit late.json', profile: 'default', baseUrl: 'http://127.0.0.1:4010', service: 'http://127.0.0.1:4010', lang: 'en', by: { user: 'ana', host: 'desk', ci: null }, pid: 1, leaseUntil: now });
    const claim = await store.claim({ idProposta: 'PROP-7001', service: 'http://127.0.0.1:4010', baseUrl: 'http://127.0.0.1:4010', bodyHash: 'h', file: null, profile: 'default', at: now, force: false, run: later });
    if (claim.kind !== 'claimed') throw new Error('not claimed');
    await store.recordAnswer(claim.ref, { at: now, outcome: 'accepted', httpStatus: 202, idContrato: 'C-7001', erros: [], message: null });
    await store.recordRunInputs(later, [{ file: 'late.json', row: null, idProposta: 'PROP-7001', outcome: 'sent', ref: claim.ref, reason: null }]);
    await store.endRun(later, now);
    await store.close();
    const waited = await runCli(['runs', 'wait', 'last', '--timeout', '1'], { env });
    expect(waited.code, waited.stderr).toBe(9);
    expect(waited.stdout).toContain('1 accepted = 0 approved + 0 denied + 0 cancelled + 1 waiting');

    // An outcome this build does not place (a hand edit, a newer build's): the identity fails.
    const edited = await SqliteStore.open(scratch.home);
    await edited.recordRunInputs(id, [{ file: 'lote/odd.json', row: null, idProposta: null, outcome: 'teleported', ref: null, reason: null }]);
    await edited.close();
    const shown = await runCli(['runs', 'show', id, '--json'], { env });
    expect(shown.code).toBe(70);
    expect(JSON.parse(shown.stdout)).toMatchObject({ ok: false, error: { exitCode: 70 } });
    expect((await runCli(['runs', 'show', id], { env })).stderr).toMatch(/does not balance: 10 inputs, 9 placed/);
    expect((await runCli(['runs', 'show', 'r-19990101-0000-000'], { env })).code).toBe(2);
  }, 30_000);
});

describe.skipIf(!havePostgres())('runs on a team store (PostgreSQL)', () => {
  let pg: PgCluster;
  const homes: string[] = [];
  const home = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'econsig-e2e-runs-'));
    homes.push(dir);
    return dir;
  };
  beforeAll(async () => {
    pg = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await pg?.stop();
    for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('two identical runs started together on two desks: each proposal sent once, both exit as the results (8), neither 5; runs wait on a third home exits 8 once the last result lands', async () => {
    const db = await pg.createDatabase('runs_1');
    const receiver = startWatch(['--port', '0', '--json'], { ECONSIG_HOME: home(), ECONSIG_DATABASE_URL: db });
    const sbx = await startCountedSandbox({ delayMs: 1_500, catalogue, webhookUrl: await receiver.url() });
    const folder = join(scratch.dir, 'lote');
    mkdirSync(folder);
    for (const id of [...APPROVED, ...DENIED]) writeJson(folder, `${id}.json`, bankOnly(id));
    const desk = () => ({ ...cliEnv(home(), sbx.sandbox.url, sbx.sandbox.token), ECONSIG_DATABASE_URL: db });
    const [a, b] = await Promise.all([
      runCli(['submit', folder, '--wait', '--timeout', '20', '--json'], { env: desk(), timeoutMs: 40_000 }),
      runCli(['submit', folder, '--wait', '--timeout', '20', '--json'], { env: desk(), timeoutMs: 40_000 }),
    ]);
    expect([...postsByProposal(sbx).values()]).toEqual([1, 1, 1, 1, 1, 1]);
    for (const run of [a, b]) {
      expect(run.code, run.stderr).toBe(8);
      const outcomes = parseSubmitJson(run.stdout).results.map((r) => r.outcome);
      expect(outcomes.filter((o) => o === 'approved')).toHaveLength(4);
      expect(outcomes.filter((o) => o === 'denied')).toHaveLength(2);
    }
    const ids = [a, b].map((run) => (JSON.parse(run.stdout) as { runId: string }).runId);
    expect(ids[0]).not.toBe(ids[1]);
    // The second run's ledger counts the first's submissions, with their real results.
    const third = { ...cliEnv(home(), sbx.sandbox.url, sbx.sandbox.token), ECONSIG_DATABASE_URL: db };
    for (const id of ids) {
      const shown = await runCli(['runs', 'show', id, '--json'], { env: third });
      expect(shown.code, shown.stderr).toBe(8);
      expect((JSON.parse(shown.stdout) as { run: { ledger: Ledger } }).run.ledger).toMatchObject({ inputs: 6, accepted: 6, approved: 4, denied: 2 });
    }

    // A CI job submits without waiting; a later job on another home (another runner) waits.
    const again = join(scratch.dir, 'again');
    mkdirSync(again);
    // Corrected data (another body): the denied contract no longer holds the proposal.
    const corrected = bankOnly('PROP-6005');
    writeJson(again, 'deny.json', { ...corrected, pessoa: { ...corrected.pessoa, naturalidade: 'Olinda' } });
    const submitted = await runCli(['submit', again, '--json'], { env: desk(), timeoutMs: 30_000 });
    expect(submitted.code, submitted.stderr).toBe(0);
    const runId = (JSON.parse(submitted.stdout) as { runId: string }).runId;
    const waited = await runCli(['runs', 'wait', runId, '--timeout', '20'], { env: third, timeoutMs: 30_000 });
    expect(waited.code, waited.stderr).toBe(8);
    expect(waited.stdout).toContain('1 accepted = 0 approved + 1 denied + 0 cancelled + 0 waiting');
    receiver.child.kill('SIGTERM');
    await receiver.exit;
  }, 90_000);
});
