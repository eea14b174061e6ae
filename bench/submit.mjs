// submit throughput: a batch of 5,000 submissions through the built binary (a fresh
// process, the store on) against the sandbox in another process, at concurrency 8 (set
// BENCH_CONCURRENCY=1,8,32 for more), side by side with autocannon and a bare undici Pool
// posting the same bodies to a fresh sandbox in the same run. Goals: at concurrency 8,
// >= 0.5x the bare Pool's rate (issue 21's floor, with synchronous=FULL), under 150 MiB.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import autocannon from 'autocannon';
import { bin, startSandboxProcess, median, root, runNode, table } from './lib.mjs';

const COUNT = 5_000;
// autocannon sends each of these bodies once (its `amount`), so every request takes the
// sandbox's 202 path as econsig's do; a body sent twice would be a 422 (in progress).
const EXTRA = 60_000;

function cpfFrom(nine) {
  const digits = String(nine).padStart(9, '0').split('').map(Number);
  const dv = (len) => {
    const sum = digits.slice(0, len).reduce((s, d, i) => s + d * (len + 1 - i), 0);
    const r = sum % 11;
    return r < 2 ? 0 : 11 - r;
  };
  digits.push(dv(9));
  digits.push(dv(10));
  return digits.join('');
}

function prepare(dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'files'), { recursive: true });
  const base = JSON.parse(readFileSync(join(root, 'fixtures/valid/bank-only.json'), 'utf8'));
  const workers = [];
  const proposals = [];
  const bodies = [];
  for (let i = 0; i < COUNT + EXTRA; i++) {
    const cpf = cpfFrom(300_000_000 + i * 7);
    const id = `BENCH-${i}`;
    workers.push({ cpf, name: `Bench ${i}` });
    proposals.push({ idProposta: id, workerCpf: cpf, outcome: 'approved' });
    const body = { ...base, idProposta: id };
    if (i < COUNT) writeFileSync(join(dir, 'files', `${String(i).padStart(5, '0')}.json`), JSON.stringify(body, null, 2));
    else bodies.push(JSON.stringify(body));
  }
  writeFileSync(join(dir, 'catalogue.json'), JSON.stringify({ workers, proposals, pixKeys: [] }));
  return bodies;
}

/** A sandbox in its own process; contracts stay in progress for an hour (no webhooks during the run). */
function startSandboxFor(dir) {
  return startSandboxProcess(['--delay', '3600', '--proposals', join(dir, 'catalogue.json'), '--webhook-url', 'http://127.0.0.1:9/none']);
}

async function autocannonRate(dir, bodies, connections) {
  const sandbox = await startSandboxFor(dir);
  try {
    let i = 0;
    const result = await autocannon({
      url: `${sandbox.baseUrl}/api/v1/e-consignado/contratos`,
      method: 'POST',
      connections,
      amount: bodies.length,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${sandbox.token}` },
      requests: [{ setupRequest: (req) => ({ ...req, body: bodies[i++ % bodies.length] }) }],
    });
    if (result.non2xx > 0) throw new Error(`autocannon got ${result.non2xx} non-2xx answers`);
    return result.requests.average;
  } finally {
    await sandbox.stop();
  }
}

// The ceiling of a client in Node on this machine: an undici Pool posting the same files
// (read and parsed, not validated, no journal) in a fresh process, as econsig does.
const BARE_POOL = `
const { Pool } = require(process.argv[1]);
const fs = require('node:fs');
const [, , dir, baseUrl, token, c] = process.argv;
const start = performance.now();
const bodies = fs.readdirSync(dir).sort().map((name) => JSON.stringify(JSON.parse(fs.readFileSync(dir + '/' + name, 'utf8'))));
const pool = new Pool(baseUrl, { connections: Number(c), pipelining: 1 });
let next = 0;
let accepted = 0;
let sendStart;
async function worker() {
  while (next < bodies.length) {
    const body = bodies[next++];
    const res = await pool.request({ path: '/api/v1/e-consignado/contratos', method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token }, body });
    await res.body.text();
    if (res.statusCode === 202) accepted++;
  }
}
sendStart = performance.now();
Promise.all(Array.from({ length: Number(c) }, worker)).then(async () => {
  const end = performance.now();
  await pool.close();
  console.log(JSON.stringify({ accepted, sendMs: end - sendStart, ms: end - start }));
});
`;

async function barePoolRate(dir, concurrency) {
  const sandbox = await startSandboxFor(dir);
  try {
    const r = runNode(['-e', BARE_POOL, join(root, 'node_modules/undici/index.js'), join(dir, 'files'), sandbox.baseUrl, sandbox.token, String(concurrency)], { stdout: 'pipe' });
    const out = JSON.parse(r.stdout);
    if (out.accepted !== COUNT) throw new Error(`bare Pool: only ${out.accepted}/${COUNT} accepted`);
    return { rate: COUNT / (r.ms / 1000), sendRate: COUNT / (out.sendMs / 1000) };
  } finally {
    await sandbox.stop();
  }
}

async function econsigRate(dir, concurrency) {
  const sandbox = await startSandboxFor(dir);
  const home = mkdtempSync(join(tmpdir(), 'econsig-bench-'));
  try {
    const r = runNode([bin, 'submit', join(dir, 'files'), '--concurrency', String(concurrency), '--json'], {
      env: { ECONSIG_HOME: home, ECONSIG_TOKEN: sandbox.token, ECONSIG_BASE_URL: sandbox.baseUrl },
      stdout: 'pipe',
    });
    const doc = JSON.parse(r.stdout);
    const accepted = doc.results.filter((x) => x.outcome === 'accepted').length;
    if (accepted !== COUNT) throw new Error(`only ${accepted}/${COUNT} accepted at concurrency ${concurrency} (exit ${r.status})`);
    // The send phase alone: first claim recorded to last answer recorded.
    // Nothing lost: one claim and one answer per file.
    const db = new DatabaseSync(join(home, 'econsig.db'), { readOnly: true });
    const row = db.prepare('SELECT (SELECT count(*) FROM submissions) AS claims, (SELECT count(*) FROM answers) AS answers, (SELECT min(sent_at) FROM submissions) AS first, (SELECT max(at) FROM answers) AS last').get();
    db.close();
    if (row.claims !== COUNT || row.answers !== COUNT) throw new Error(`the store has ${row.claims} claims and ${row.answers} answers, expected ${COUNT} of each`);
    const sendMs = Date.parse(row.last) - Date.parse(row.first);
    return { rate: COUNT / (r.ms / 1000), sendRate: COUNT / (sendMs / 1000), ms: r.ms, rssMiB: r.rssMiB, storedRows: row.claims + row.answers };
  } finally {
    await sandbox.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

export async function benchSubmit({ runs = 3 } = {}) {
  const dir = join(root, 'bench/.data/submit');
  const bodies = prepare(dir);
  const rows = [];
  const concurrencies = (process.env.BENCH_CONCURRENCY ?? '8').split(',').map(Number);
  for (const c of concurrencies) {
    const ours = [];
    const sending = [];
    const theirs = [];
    const bare = [];
    const bareSending = [];
    const rss = [];
    let storedRows = 0;
    for (let i = 0; i < runs; i++) {
      theirs.push(await autocannonRate(dir, bodies, c));
      const b = await barePoolRate(dir, c);
      bare.push(b.rate);
      bareSending.push(b.sendRate);
      const r = await econsigRate(dir, c);
      ours.push(r.rate);
      sending.push(r.sendRate);
      rss.push(r.rssMiB);
      storedRows = r.storedRows;
    }
    rows.push({
      concurrency: c,
      autocannon: median(theirs),
      econsig: median(ours),
      ratio: median(ours) / median(theirs),
      sending: median(sending),
      sendRatio: median(sending) / median(theirs),
      bare: median(bare),
      bareSending: median(bareSending),
      rssMiB: Math.max(...rss),
      storedRows,
    });
  }
  return rows;
}

export function printSubmit(rows) {
  console.log(`\n## submit: ${COUNT} submissions, whole process (start-up, validation, every claim on disk before its POST), median of runs`);
  console.log(
    table([
      ['concurrency', 'autocannon req/s', 'econsig whole process /s', 'ratio', 'send phase /s', 'ratio', 'peak RSS MiB', 'stored rows', 'bare Pool whole /s', 'ratio', 'bare Pool sending /s', 'ratio'],
      ...rows.map((r) => [
        r.concurrency, r.autocannon.toFixed(0), r.econsig.toFixed(0), r.ratio.toFixed(2), r.sending.toFixed(0), r.sendRatio.toFixed(2), r.rssMiB.toFixed(1), r.storedRows,
        r.bare.toFixed(0), (r.bare / r.autocannon).toFixed(2), r.bareSending.toFixed(0), (r.bareSending / r.autocannon).toFixed(2),
      ]),
    ]),
  );
  console.log('whole process = start-up + validating 5,000 files + sending; send phase = first claim recorded to last answer (from the store).');
  console.log('bare Pool = undici Pool posting the same files, read and parsed but not validated, no store: the ceiling of a Node client here.');
  const c8 = rows.find((r) => r.concurrency === 8);
  if (c8) {
    const vsBare = c8.econsig / c8.bare;
    console.log(`floor at concurrency 8: >= 0.5x the bare Pool (whole process): ${vsBare.toFixed(2)}x ${vsBare >= 0.5 ? 'met' : 'NOT met'}; < 150 MiB: ${c8.rssMiB.toFixed(1)} MiB ${c8.rssMiB < 150 ? 'met' : 'NOT met'}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) printSubmit(await benchSubmit());
