// The store at size (issue 13): `submit` of one file and `history --limit 20` through the
// built binary with 1,000,000 contracts in the store against an empty store, run pair by
// pair so the machine's noise hits both sides alike (goal: within 1.2x); and the one-time
// import of a 1,000,000-contract journal.jsonl (goal: under 60 s and 200 MiB).
// The big store is seeded with SQL directly (not through the CLI), in the schema the CLI
// created. BENCH_STORE_ROWS changes the size (e.g. 100000 for a quick run).
import { closeSync, fsyncSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { bin, PAIR_HEADER, pairRow, startSandboxProcess, root, runNode, table } from './lib.mjs';

const ROWS = Number(process.env.BENCH_STORE_ROWS ?? 1_000_000);
const RUNS = 15;


const uuidOf = (i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

/** Fills the store of `home` (schema made by the CLI) with `rows` accepted contracts, a third with a result. */
function seed(home, rows, baseUrl) {
  const db = new DatabaseSync(join(home, 'econsig.db'));
  db.exec('PRAGMA synchronous = OFF');
  const sub = db.prepare('INSERT INTO submissions (id, ref, id_proposta, base_url, body_hash, file, profile, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const ans = db.prepare('INSERT INTO answers (submission_id, at, outcome, http_status, id_contrato, erros, message) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const res = db.prepare('INSERT INTO results (id_contrato, at, outcome, status, reason) VALUES (?, ?, ?, ?, ?)');
  const start = Date.parse('2025-01-01T00:00:00Z');
  for (let from = 1; from <= rows; from += 100_000) {
    db.exec('BEGIN');
    for (let i = from; i < Math.min(from + 100_000, rows + 1); i++) {
      const at = new Date(start + i * 20_000).toISOString();
      sub.run(i, `seed-${i}`, `SEED-${i}`, baseUrl, 'f'.repeat(64), `seed/${i}.json`, 'default', at);
      ans.run(i, at, 'accepted', 202, uuidOf(i), '[]', `202 accepted: contract ${uuidOf(i)}`);
      if (i % 3 === 0) res.run(uuidOf(i), at, i % 6 === 0 ? 'denied' : 'approved', null, null);
    }
    db.exec('COMMIT');
  }
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
  // Seeded without syncs: flush it now, or the first fsync of a timed run pays for 500 MB.
  const fd = openSync(join(home, 'econsig.db'), 'r+');
  fsyncSync(fd);
  closeSync(fd);
}

/** Writes a journal.jsonl of `rows` contracts (a submission and an answer line each) in the old format. */
function writeJournal(path, rows) {
  const fd = openSync(path, 'w');
  const start = Date.parse('2025-01-01T00:00:00Z');
  let chunk = [];
  for (let i = 1; i <= rows; i++) {
    const at = new Date(start + i * 20_000).toISOString();
    const ref = `00000000-0000-4000-9000-${String(i).padStart(12, '0')}`;
    chunk.push(JSON.stringify({ kind: 'submission', ref, at, file: `batch/${i}.json`, idProposta: `OLD-${i}`, bodyHash: 'e'.repeat(64), profile: 'default', baseUrl: 'https://homolog.example' }));
    chunk.push(JSON.stringify({ kind: 'answer', ref, at, outcome: 'accepted', httpStatus: 202, idContrato: uuidOf(i), erros: [], message: `202 accepted: contract ${uuidOf(i)}` }));
    if (chunk.length >= 20_000) {
      writeSync(fd, `${chunk.join('\n')}\n`);
      chunk = [];
    }
  }
  if (chunk.length > 0) writeSync(fd, `${chunk.join('\n')}\n`);
  closeSync(fd);
}

export async function benchStore() {
  const dir = mkdtempSync(join(tmpdir(), 'econsig-bench-store-'));
  try {
    // Proposals for the submits: a new one each run on each side (the guard has work to do).
    const ids = Array.from({ length: 2 * RUNS + 2 }, (_, i) => `BSTORE-${i}`);
    const cpf = (i) => String(80_000_000_000 + i);
    const catalogue = join(dir, 'catalogue.json');
    writeFileSync(catalogue, JSON.stringify({ workers: ids.map((_, i) => ({ cpf: cpf(i), name: `W${i}` })), proposals: ids.map((idProposta, i) => ({ idProposta, workerCpf: cpf(i), outcome: 'approved' })), pixKeys: [] }));
    const base = JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(join(root, 'fixtures/valid/bank-only.json'), 'utf8')));
    mkdirSync(join(dir, 'files'));
    const fileOf = (i) => {
      const path = join(dir, 'files', `${ids[i]}.json`);
      writeFileSync(path, JSON.stringify({ ...base, idProposta: ids[i] }));
      return path;
    };

    const sandbox = await startSandboxProcess(['--delay', '3600', '--proposals', catalogue, '--webhook-url', 'http://127.0.0.1:9/none']);
    const empty = join(dir, 'empty');
    const big = join(dir, 'big');
    let seedMs;
    try {
      for (const home of [empty, big]) {
        const made = runNode([bin, 'history'], { env: { ECONSIG_HOME: home } });
        if (made.status !== 0) throw new Error(`history on a new home exited ${made.status}: ${made.stderr}`);
      }
      const t0 = performance.now();
      seed(big, ROWS, sandbox.baseUrl);
      seedMs = performance.now() - t0;
      const env = (home) => ({ ECONSIG_HOME: home, ECONSIG_TOKEN: sandbox.token, ECONSIG_BASE_URL: sandbox.baseUrl });
      const pairs = { submit: { empty: [], big: [], ratios: [] }, history: { empty: [], big: [], ratios: [] } };
      // One warm-up of each, so neither side pays for a cold disk cache alone.
      runNode([bin, 'history', '--limit', '20'], { env: env(big) });
      runNode([bin, 'history', '--limit', '20'], { env: env(empty) });
      for (let i = 0; i < RUNS; i++) {
        const a = runNode([bin, 'submit', fileOf(2 * i), '--json'], { env: env(empty), stdout: 'pipe' });
        const b = runNode([bin, 'submit', fileOf(2 * i + 1), '--json'], { env: env(big), stdout: 'pipe' });
        for (const r of [a, b]) if (r.status !== 0) throw new Error(`submit exited ${r.status}: ${r.stderr}`);
        pairs.submit.empty.push(a.ms);
        pairs.submit.big.push(b.ms);
        pairs.submit.ratios.push(b.ms / a.ms);
        const h1 = runNode([bin, 'history', '--limit', '20'], { env: env(empty), stdout: 'pipe' });
        const h2 = runNode([bin, 'history', '--limit', '20'], { env: env(big), stdout: 'pipe' });
        for (const r of [h1, h2]) if (r.status !== 0) throw new Error(`history exited ${r.status}: ${r.stderr}`);
        pairs.history.empty.push(h1.ms);
        pairs.history.big.push(h2.ms);
        pairs.history.ratios.push(h2.ms / h1.ms);
      }
      const dbMiB = statSync(join(big, 'econsig.db')).size / 2 ** 20;
      rmSync(big, { recursive: true, force: true });

      // The import: a journal of ROWS contracts, imported by the first command.
      const old = join(dir, 'old');
      mkdirSync(old, { mode: 0o700 });
      const journal = join(old, 'journal.jsonl');
      writeJournal(journal, ROWS);
      const journalMiB = statSync(journal).size / 2 ** 20;
      const imp = runNode([bin, 'history', '--limit', '1', '--json'], { env: { ECONSIG_HOME: old }, stdout: 'pipe' });
      if (imp.status !== 0) throw new Error(`the import exited ${imp.status}: ${imp.stderr}`);
      const check = new DatabaseSync(join(old, 'econsig.db'), { readOnly: true });
      const imported = Number(check.prepare('SELECT count(*) AS n FROM answers WHERE id_contrato IS NOT NULL').get().n);
      check.close();
      return { rows: ROWS, seedMs, dbMiB, pairs, import: { ms: imp.ms, rssMiB: imp.rssMiB, journalMiB, imported } };
    } finally {
      await sandbox.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printStore(r) {
  const n = r.rows.toLocaleString('en');
  console.log(`\n## store: ${n} contracts in the store vs an empty store (whole process, median of ${RUNS} pairs; seeded with SQL in ${(r.seedMs / 1000).toFixed(1)} s, ${r.dbMiB.toFixed(0)} MiB)`);
  console.log(
    table([
      PAIR_HEADER(n),
      pairRow('submit (1 file)', r.pairs.submit),
      pairRow('history --limit 20', r.pairs.history),
    ]),
  );
  const i = r.import;
  const ok = i.imported === r.rows;
  console.log(`\n## store: import of a ${n}-contract journal.jsonl (${i.journalMiB.toFixed(0)} MiB) by the first command`);
  console.log(
    table([
      ['seconds', 'peak RSS MiB', 'contracts imported', 'goal < 60 s', 'goal < 200 MiB'],
      [(i.ms / 1000).toFixed(1), i.rssMiB.toFixed(1), `${i.imported.toLocaleString('en')}${ok ? '' : ' (MISSING SOME)'}`, i.ms < 60_000 ? 'met' : 'NOT met', i.rssMiB < 200 ? 'met' : 'NOT met'],
    ]),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) printStore(await benchStore());
