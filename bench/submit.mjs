// submit throughput: a batch of 5,000 submissions through the built binary (a fresh
// process, journal on) against the sandbox in another process, at concurrency 1, 8 and
// 32, side by side with autocannon posting the same bodies to a fresh sandbox in the
// same run. Goal: at concurrency 8, >= 0.3x autocannon's rate, under 150 MiB.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { bin, median, root, runNode, table } from './lib.mjs';

const COUNT = 5_000;
// autocannon runs by duration (its `amount` mode only notices the end on a 1 s tick), with
// bodies it never repeats, so every request takes the sandbox's 202 path as econsig's do.
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
async function startSandboxProcess(dir) {
  const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--delay', '3600', '--proposals', join(dir, 'catalogue.json'), '--json', '--webhook-url', 'http://127.0.0.1:9/none'], {
    env: { ...process.env, CI: '1', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
  });
  lines.on('line', () => undefined); // keep draining its log
  const { baseUrl, token } = JSON.parse(first);
  return {
    baseUrl,
    token,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

async function autocannonRate(dir, bodies, connections) {
  const sandbox = await startSandboxProcess(dir);
  try {
    let i = 0;
    const result = await autocannon({
      url: `${sandbox.baseUrl}/api/v1/e-consignado/contratos`,
      method: 'POST',
      connections,
      duration: 3,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${sandbox.token}` },
      requests: [{ setupRequest: (req) => ({ ...req, body: bodies[i++ % bodies.length] }) }],
    });
    if (result.non2xx > 0) throw new Error(`autocannon got ${result.non2xx} non-2xx answers: raise EXTRA`);
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
  const sandbox = await startSandboxProcess(dir);
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
  const sandbox = await startSandboxProcess(dir);
  const home = mkdtempSync(join(tmpdir(), 'econsig-bench-'));
  try {
    const r = runNode([bin, 'submit', join(dir, 'files'), '--concurrency', String(concurrency), '--json'], {
      env: { ECONSIG_HOME: home, ECONSIG_TOKEN: sandbox.token, ECONSIG_BASE_URL: sandbox.baseUrl },
      stdout: 'pipe',
    });
    const doc = JSON.parse(r.stdout);
    const accepted = doc.results.filter((x) => x.outcome === 'accepted').length;
    if (accepted !== COUNT) throw new Error(`only ${accepted}/${COUNT} accepted at concurrency ${concurrency} (exit ${r.status})`);
    const entries = readFileSync(join(home, 'journal.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    // The send phase alone: first submission line written to last answer line written.
    // Nothing lost: one submission line and one answer line per file.
    if (entries.length !== 2 * COUNT) throw new Error(`journal has ${entries.length} lines, expected ${2 * COUNT}`);
    const times = entries.map((e) => Date.parse(e.at));
    const sendMs = Math.max(...times) - Math.min(...times);
    return { rate: COUNT / (r.ms / 1000), sendRate: COUNT / (sendMs / 1000), ms: r.ms, rssMiB: r.rssMiB, journalLines: entries.length };
  } finally {
    await sandbox.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

export async function benchSubmit({ runs = 3 } = {}) {
  const dir = join(root, 'bench/.data/submit');
  const bodies = prepare(dir);
  const rows = [];
  for (const c of [1, 8, 32]) {
    const ours = [];
    const sending = [];
    const theirs = [];
    const bare = [];
    const bareSending = [];
    const rss = [];
    let journalLines = 0;
    for (let i = 0; i < runs; i++) {
      theirs.push(await autocannonRate(dir, bodies, c));
      const b = await barePoolRate(dir, c);
      bare.push(b.rate);
      bareSending.push(b.sendRate);
      const r = await econsigRate(dir, c);
      ours.push(r.rate);
      sending.push(r.sendRate);
      rss.push(r.rssMiB);
      journalLines = r.journalLines;
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
      journalLines,
    });
  }
  return rows;
}

export function printSubmit(rows) {
  console.log(`\n## submit: ${COUNT} submissions, whole process (start-up, validation, journal with fdatasync), median of runs`);
  console.log(
    table([
      ['concurrency', 'autocannon req/s', 'econsig whole process /s', 'ratio', 'send phase /s', 'ratio', 'peak RSS MiB', 'journal lines', 'bare Pool whole /s', 'ratio', 'bare Pool sending /s', 'ratio'],
      ...rows.map((r) => [
        r.concurrency, r.autocannon.toFixed(0), r.econsig.toFixed(0), r.ratio.toFixed(2), r.sending.toFixed(0), r.sendRatio.toFixed(2), r.rssMiB.toFixed(1), r.journalLines,
        r.bare.toFixed(0), (r.bare / r.autocannon).toFixed(2), r.bareSending.toFixed(0), (r.bareSending / r.autocannon).toFixed(2),
      ]),
    ]),
  );
  console.log('whole process = start-up + validating 5,000 files + sending; send phase = first journal line to last (from the journal).');
  console.log('bare Pool = undici Pool posting the same files, read and parsed but not validated, no journal: the ceiling of a Node client here.');
  console.log('goal: at concurrency 8, >= 0.3x autocannon with the journal on, < 150 MiB');
}

if (import.meta.url === `file://${process.argv[1]}`) printSubmit(await benchSubmit());
