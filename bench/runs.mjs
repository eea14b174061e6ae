// Runs (issue 26), through the built binary:
// 1. `runs show <id>` of a run of 100,000 inputs (1 in 50 invalid; of the rest, 1 in 20 denied
//    and 1 in 20 still waiting), human (the ledger and the ~5,000 that need a person, 100 listed
//    per group) and --json (every input). Goal: under 1 s.
// 2. `runs` (the newest 20 with their ledgers) with 10,000 runs in the store against an empty
//    store, pair by pair so the machine's noise hits both alike. Goal: within 1.2x.
// 3. `runs wait <id>` on another home of a team store (PostgreSQL, LISTEN/NOTIFY): 100 runs,
//    each awaited by its own process, from the receiver's 2xx to the waiting process's
//    answer (its --json document). Goal: p99 < 1 s, as `watch --contract`.
// The stores are seeded with SQL (SQLite) or through the built record (PostgreSQL), in the
// schema the CLI created. Run alone: `node bench/runs.mjs` (after `npm run build`).
// BENCH_RUN_INPUTS and BENCH_RUNS change the sizes.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';
import { request } from 'undici';
import { bin, median, range, root, runNode, table } from './lib.mjs';

const INPUTS = Number(process.env.BENCH_RUN_INPUTS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 10_000);
const REPEAT = 9;
const BASE = 'http://127.0.0.1:4010';

const home = () => mkdtempSync(join(tmpdir(), 'econsig-bench-runs-'));
/** The store of `dir`, created by the CLI (its schema, its migrations). */
const create = (dir) => runNode([bin, 'runs'], { env: { ECONSIG_HOME: dir } });

/** `runs` runs of `per` inputs each into the SQLite store of `dir`. */
function seed(dir, runs, per, start = Date.parse('2026-01-01T00:00:00Z')) {
  const db = new DatabaseSync(join(dir, 'econsig.db'));
  db.exec('PRAGMA synchronous = OFF');
  const run = db.prepare(
    'INSERT INTO runs (run_id, started_at, ended_at, command, profile, base_url, service, lang, by_user, by_host, by_ci, pid, lease_until) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const sub = db.prepare('INSERT INTO submissions (id, ref, id_proposta, base_url, body_hash, file, profile, sent_at, service, run_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const ans = db.prepare('INSERT INTO answers (submission_id, at, outcome, http_status, id_contrato, erros, message) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const res = db.prepare('INSERT INTO results (id_contrato, at, outcome, status, reason) VALUES (?, ?, ?, ?, ?)');
  const input = db.prepare('INSERT INTO run_inputs (run_id, file, sheet_row, id_proposta, outcome, submission_id, reason) VALUES (?, ?, ?, ?, ?, ?, ?)');
  let n = 0;
  db.exec('BEGIN');
  const ids = [];
  for (let r = 0; r < runs; r++) {
    const at = new Date(start + r * 60_000).toISOString();
    const id = `r-bench-${String(r).padStart(6, '0')}`;
    ids.push(id);
    run.run(id, at, at, 'econsig submit lote.csv', 'default', BASE, BASE, 'en', 'ana', 'desk', null, 1, at);
    for (let i = 0; i < per; i++) {
      n++;
      if (i % 50 === 49) {
        input.run(id, 'lote.csv', i + 2, null, 'invalid', null, 'cpf: check digit');
        continue;
      }
      const ref = `seed-${n}`;
      const contract = `C-${n}`;
      sub.run(n, ref, `P-${n}`, BASE, 'f'.repeat(64), 'lote.csv', 'default', at, BASE, id);
      ans.run(n, at, 'accepted', 202, contract, '[]', null);
      // Most results in (95%), 1 in 20 denied, 1 in 20 still waiting.
      if (n % 20 !== 0) res.run(contract, at, n % 20 === 1 ? 'denied' : 'approved', null, n % 20 === 1 ? 'Margem' : null);
      input.run(id, 'lote.csv', i + 2, `P-${n}`, 'sent', n, null);
      if (n % 100_000 === 0) {
        db.exec('COMMIT');
        db.exec('BEGIN');
      }
    }
  }
  db.exec('COMMIT');
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
  return ids;
}

function showBench() {
  const dir = home();
  try {
    create(dir);
    // Sent a minute ago: its waiting inputs are not yet overdue (the run of yesterday 17:00 asked about this morning).
    const [id] = seed(dir, 1, INPUTS, Date.now() - 60_000);
    const human = [];
    const json = [];
    for (let i = 0; i < REPEAT; i++) {
      human.push(runNode([bin, 'runs', 'show', id], { env: { ECONSIG_HOME: dir } }).ms);
      json.push(runNode([bin, 'runs', 'show', id, '--json'], { env: { ECONSIG_HOME: dir } }).ms);
    }
    return { inputs: INPUTS, humanMs: median(human), humanRange: range(human), jsonMs: median(json), jsonRange: range(json) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function listBench() {
  const [empty, full] = [home(), home()];
  try {
    create(empty);
    create(full);
    seed(full, RUNS, 3);
    const a = [];
    const b = [];
    for (let i = 0; i < REPEAT * 2; i++) {
      a.push(runNode([bin, 'runs', '--json'], { env: { ECONSIG_HOME: empty } }).ms);
      b.push(runNode([bin, 'runs', '--json'], { env: { ECONSIG_HOME: full } }).ms);
    }
    return { runs: RUNS, emptyMs: median(a), fullMs: median(b), ratio: median(b) / median(a) };
  } finally {
    rmSync(empty, { recursive: true, force: true });
    rmSync(full, { recursive: true, force: true });
  }
}

/** `econsig <args>` as a child: its stdout lines with the time each was read, its exit. */
function econsig(args, env) {
  const child = spawn(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, CI: '1', NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { lines: [], stderr: '', child };
  child.stdout.on('data', (d) => {
    for (const line of String(d).split('\n')) if (line) out.lines.push({ at: performance.now(), line });
  });
  child.stderr.on('data', (d) => (out.stderr += d));
  out.exit = new Promise((resolve) => child.on('exit', resolve));
  out.until = async (test, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!test()) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`econsig ${args.join(' ')}: ${out.stderr}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return out;
}

async function waitBench(total = 100, batch = 20) {
  const postgres = await import(pathToFileURL(join(root, 'test/e2e/postgres.ts')).href);
  if (!postgres.findPostgresBin()) return { skipped: 'PostgreSQL is not installed' };
  const pg = await postgres.startPostgres({ fsync: true, maxConnections: 200 });
  const { PostgresStore } = await import(pathToFileURL(join(root, 'dist/record/postgres.js')).href);
  const dirs = [home(), home()];
  try {
    const url = await pg.createDatabase('bench_runs_wait');
    const store = await PostgresStore.open(url);
    const receiver = econsig(['watch', '--port', '0', '--json'], { ECONSIG_HOME: dirs[0], ECONSIG_DATABASE_URL: url });
    await receiver.until(() => receiver.lines.length > 0);
    const webhook = JSON.parse(receiver.lines[0].line).url;
    const latencies = [];
    let failures = 0;
    for (let done = 0; done < total; done += batch) {
      const runs = [];
      for (let i = 0; i < batch; i++) {
        const id = `r-wait-${done + i}`;
        const contract = `C-${randomUUID()}`;
        const at = new Date().toISOString();
        await store.startRun({ id, startedAt: at, command: 'econsig submit', profile: 'default', baseUrl: BASE, service: BASE, lang: 'en', by: { user: null, host: 'ci', ci: null }, pid: 1, leaseUntil: at });
        const claim = await store.claim({ idProposta: `P-${contract}`, service: BASE, baseUrl: BASE, bodyHash: 'h', file: null, profile: 'default', at, force: false, run: id });
        await store.recordAnswer(claim.ref, { at, outcome: 'accepted', httpStatus: 202, idContrato: contract, erros: [], message: null });
        await store.recordRunInputs(id, [{ file: 'p.json', row: null, idProposta: `P-${contract}`, outcome: 'sent', ref: claim.ref, reason: null }]);
        await store.endRun(id, at);
        runs.push({ id, contract });
      }
      const waiters = runs.map(({ id }) => econsig(['runs', 'wait', id, '--timeout', '60', '--json'], { ECONSIG_HOME: dirs[1], ECONSIG_DATABASE_URL: url }));
      // Each says what it waits for (stderr) as it starts following the store.
      await Promise.all(waiters.map((w) => w.until(() => w.stderr.includes('waiting for'), 60_000)));
      for (const [i, { contract }] of runs.entries()) {
        const res = await request(webhook, { method: 'POST', body: JSON.stringify({ idContrato: contract, status: 'APROVADO', dataHora: new Date().toISOString() }), headers: { 'content-type': 'application/json' } });
        await res.body.dump();
        waiters[i].acked = performance.now();
        if (res.statusCode !== 200) failures++;
        await new Promise((r) => setTimeout(r, 25));
      }
      for (const w of waiters) {
        try {
          await w.until(() => w.lines.length > 0, 10_000);
          latencies.push(w.lines[0].at - w.acked);
        } catch {
          failures++;
        }
        await w.exit;
      }
    }
    receiver.child.kill('SIGTERM');
    await receiver.exit;
    await store.close();
    latencies.sort((a, b) => a - b);
    const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
    return { count: latencies.length, failures, p50ms: Math.round(pct(50)), p99ms: Math.round(pct(99)), maxms: Math.round(latencies.at(-1)) };
  } finally {
    await pg.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

// BENCH_ONLY=show|list|wait runs one part.
const only = process.env.BENCH_ONLY;
if (!only || only === 'show') {
  const show = showBench();
  console.log(table([
    ['runs show', 'inputs', 'median ms', 'range ms'],
    ['human', show.inputs, show.humanMs.toFixed(0), show.humanRange],
    ['--json', show.inputs, show.jsonMs.toFixed(0), show.jsonRange],
  ]));
  console.log(`goal runs show of ${show.inputs} inputs under 1 s: ${Math.max(show.humanMs, show.jsonMs) < 1000 ? 'met' : 'NOT met'}`);
}
if (!only || only === 'list') {
  const list = listBench();
  console.log(`runs --json: empty ${list.emptyMs.toFixed(0)} ms, ${list.runs} runs ${list.fullMs.toFixed(0)} ms, ratio ${list.ratio.toFixed(2)}; goal within 1.2x: ${list.ratio <= 1.2 ? 'met' : 'NOT met'}`);
}
if (!only || only === 'wait') {
  const wait = await waitBench();
  if (wait.skipped) console.log(`runs wait: skipped (${wait.skipped})`);
  else console.log(`runs wait on another home (PostgreSQL), ${wait.count} runs: p50 ${wait.p50ms} ms, p99 ${wait.p99ms} ms, max ${wait.maxms} ms, failures ${wait.failures}; goal p99 < 1 s: ${wait.p99ms < 1000 && wait.failures === 0 ? 'met' : 'NOT met'}`);
}
