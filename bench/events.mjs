// Issue 25's goals. (1) `econsig events` (the newest 20, and filtered by outcome and by
// contract) through the built binary with 1,000,000 deliveries in the store against an empty
// store, pair by pair (goal: within 1.2x). (2) `events resend --since 1d` of 10,000 deliveries
// to a local receiver against a bare undici Pool posting the same bodies to the same receiver,
// both whole processes, in the same run (goal: at least 0.5x).
// The stores are seeded with SQL in the schema the CLI created; their deliveries are recent,
// so the retention (30 d) drops nothing when they open. BENCH_EVENTS_ROWS changes the size.
import { spawn } from 'node:child_process';
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createInterface } from 'node:readline';
import { bin, median, PAIR_HEADER, pairRow, root, runNode, table } from './lib.mjs';

const ROWS = Number(process.env.BENCH_EVENTS_ROWS ?? 1_000_000);
const RESEND = 10_000;
const RUNS = 11;
const OUTCOMES = ['approved', 'denied', 'cancelled'];
const STATUS = { approved: 'APROVADO', denied: 'REPROVADO', cancelled: 'CANCELADO' };

const contractOf = (i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const bodyOf = (i, at) => {
  const outcome = OUTCOMES[i % 3];
  return JSON.stringify({ evento: 'RESULTADO_PROPOSTA', idContrato: contractOf(i), idProposta: `EV-${i}`, status: STATUS[outcome], motivo: outcome === 'denied' ? 'Margem consignável insuficiente' : null, dataHora: at, contaBancaria: { compe: '341', agencia: '0001', conta: '12345-6', tipo: 'CORRENTE' } });
};

/** Fills the store of `home` with `rows` deliveries received over the last `spanMs`, oldest first. */
function seed(home, rows, spanMs) {
  const db = new DatabaseSync(join(home, 'econsig.db'));
  db.exec('PRAGMA synchronous = OFF');
  const put = db.prepare(`INSERT INTO deliveries (received_at, webhook_id, body_hash, id_contrato, id_proposta, status, outcome, reason, verified, payload, headers, duplicates)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, 0)`);
  const headers = JSON.stringify({ 'content-type': 'application/json', 'user-agent': 'bench', 'webhook-signature': '[redacted]' });
  const start = Date.now() - spanMs;
  for (let from = 1; from <= rows; from += 100_000) {
    db.exec('BEGIN');
    for (let i = from; i < Math.min(from + 100_000, rows + 1); i++) {
      const at = new Date(start + Math.floor((i / rows) * (spanMs - 60_000))).toISOString();
      const outcome = OUTCOMES[i % 3];
      put.run(at, `msg_ev_${i}`, `h${i}`, contractOf(i), `EV-${i}`, STATUS[outcome], outcome, outcome === 'denied' ? 'Margem consignável insuficiente' : null, bodyOf(i, at), headers);
    }
    db.exec('COMMIT');
  }
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
  const fd = openSync(join(home, 'econsig.db'), 'r+');
  fsyncSync(fd);
  closeSync(fd);
}

/** A receiver in a process of its own: answers 200 to every POST; `count()` asks it how many it took. */
async function startReceiver(dir) {
  const script = join(dir, 'receiver.mjs');
  writeFileSync(
    script,
    `import { createServer } from 'node:http';
let n = 0;
const server = createServer((req, res) => { req.resume(); req.on('end', () => { n++; res.writeHead(200).end(); }); });
server.keepAliveTimeout = 10_000;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.stdin.on('data', () => console.log(n));
`,
  );
  const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const next = () => new Promise((resolve) => lines.once('line', resolve));
  const port = Number(await next());
  return {
    url: `http://127.0.0.1:${port}/hook`,
    count: async () => (child.stdin.write('\n'), Number(await next())),
    stop: () => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))),
  };
}

/** The reference: a bare undici Pool (16 connections, as resend) posting the same bodies, read from a file, in a fresh process. */
function writeReference(dir, bodies) {
  const file = join(dir, 'bodies.json');
  writeFileSync(file, JSON.stringify(bodies));
  const script = join(dir, 'pool.cjs');
  writeFileSync(
    script,
    `const { Pool } = require(${JSON.stringify(join(root, 'node_modules', 'undici'))});
const bodies = JSON.parse(require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8'));
const url = new URL(process.argv[2]);
const pool = new Pool(url.origin, { connections: 16 });
let next = 0;
const worker = async () => { while (next < bodies.length) { const body = bodies[next++]; const res = await pool.request({ path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json' }, body }); await res.body.dump(); } };
Promise.all(Array.from({ length: 16 }, worker)).then(() => pool.close());
`,
  );
  return script;
}

export async function benchEvents() {
  const dir = mkdtempSync(join(tmpdir(), 'econsig-bench-events-'));
  try {
    const empty = join(dir, 'empty');
    const big = join(dir, 'big');
    const resendHome = join(dir, 'resend');
    for (const home of [empty, big, resendHome]) {
      const made = runNode([bin, 'events'], { env: { ECONSIG_HOME: home } });
      if (made.status !== 0) throw new Error(`events on a new home exited ${made.status}: ${made.stderr}`);
    }
    const t0 = performance.now();
    seed(big, ROWS, 7 * 86_400_000);
    const seedMs = performance.now() - t0;
    const dbMiB = statSync(join(big, 'econsig.db')).size / 2 ** 20;
    const probe = contractOf(Math.floor(ROWS / 2));
    const commands = { list: ['events'], outcome: ['events', '--outcome', 'denied'], contract: ['events', '--contract', probe] };
    const pairs = Object.fromEntries(Object.keys(commands).map((k) => [k, { empty: [], big: [], ratios: [] }]));
    for (const args of Object.values(commands)) for (const home of [big, empty]) runNode([bin, ...args], { env: { ECONSIG_HOME: home }, stdout: 'pipe' });
    for (let i = 0; i < RUNS; i++) {
      for (const [name, args] of Object.entries(commands)) {
        const a = runNode([bin, ...args], { env: { ECONSIG_HOME: empty }, stdout: 'pipe' });
        const b = runNode([bin, ...args], { env: { ECONSIG_HOME: big }, stdout: 'pipe' });
        for (const r of [a, b]) if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
        pairs[name].empty.push(a.ms);
        pairs[name].big.push(b.ms);
        pairs[name].ratios.push(b.ms / a.ms);
      }
    }
    rmSync(big, { recursive: true, force: true });

    // The resend: 10,000 deliveries of the last 12 hours, to a receiver in its own process.
    seed(resendHome, RESEND, 12 * 3_600_000);
    const db = new DatabaseSync(join(resendHome, 'econsig.db'), { readOnly: true });
    const bodies = db.prepare('SELECT payload FROM deliveries ORDER BY id').all().map((r) => r.payload);
    db.close();
    const reference = writeReference(dir, bodies);
    const receiver = await startReceiver(dir);
    const runs = { econsig: [], pool: [], ratios: [], rssMiB: [] };
    try {
      const env = { ECONSIG_HOME: resendHome, ECONSIG_WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' };
      for (let i = 0; i < 5; i++) {
        const before = await receiver.count();
        const p = runNode([reference, receiver.url]);
        const e = runNode([bin, 'events', 'resend', '--since', '1d', '--to', receiver.url, '--json'], { env, stdout: 'pipe' });
        if (p.status !== 0 || e.status !== 0) throw new Error(`resend ${e.status} / pool ${p.status}: ${e.stderr}${p.stderr}`);
        const took = (await receiver.count()) - before;
        if (took !== 2 * RESEND) throw new Error(`the receiver took ${took}, not ${2 * RESEND}`);
        runs.econsig.push(RESEND / (e.ms / 1000));
        runs.pool.push(RESEND / (p.ms / 1000));
        runs.ratios.push(p.ms / e.ms);
        runs.rssMiB.push(e.rssMiB);
      }
    } finally {
      await receiver.stop();
    }
    return { rows: ROWS, seedMs, dbMiB, pairs, resend: runs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printEvents(r) {
  const n = r.rows.toLocaleString('en');
  console.log(`\n## events: ${n} deliveries in the store vs an empty store (whole process, median of ${RUNS} pairs; seeded with SQL in ${(r.seedMs / 1000).toFixed(1)} s, ${r.dbMiB.toFixed(0)} MiB)`);
  console.log(
    table([
      PAIR_HEADER(n),
      pairRow('events (newest 20)', r.pairs.list),
      pairRow('events --outcome denied', r.pairs.outcome),
      pairRow('events --contract <one>', r.pairs.contract),
    ]),
  );
  const s = r.resend;
  console.log(`\n## events resend --since 1d of ${RESEND.toLocaleString('en')} deliveries vs a bare undici Pool (16 connections) posting the same bodies, whole processes, median of ${s.ratios.length}`);
  console.log(
    table([
      ['econsig deliveries/s', 'Pool deliveries/s', 'ratio', 'peak RSS MiB', 'goal >= 0.5x'],
      [median(s.econsig).toFixed(0), median(s.pool).toFixed(0), median(s.ratios).toFixed(2), median(s.rssMiB).toFixed(1), median(s.ratios) >= 0.5 ? 'met' : 'NOT met'],
    ]),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) printEvents(await benchEvents());
