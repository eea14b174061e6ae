// Listener throughput with the durable store (SQLite, WAL, synchronous=FULL: on disk before
// the 2xx; group commit): autocannon posts unique ~1 KiB bodies for 5 s at 8 and at 50
// connections, then checks that the store has one delivery row per 2xx. Beside it, in the same
// run, the bare reference: the same listener keeping nothing (docs/performance.md; issue 21's
// floor: 2,000/s at c=8).
// Uses the built dist/ (`npx tsc -p .` first). Run alone: `node bench/listener.mjs`.
// The listener runs in a child process so autocannon does not share its event loop.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';

const DIST = new URL('../dist/', import.meta.url);

async function serve(home, bare) {
  const { SqliteStore } = await import(new URL('record/sqlite.js', DIST).href);
  const { startListener } = await import(new URL('webhook/server.js', DIST).href);
  // Bare: every delivery answered as stored, none kept (the ceiling of the listener itself).
  const store = bare
    ? { location: 'nowhere', recordDelivery: async () => 'stored', markShown: async () => {}, ping: async () => {}, close: async () => {} }
    : await SqliteStore.open(home);
  const listener = await startListener({ host: '127.0.0.1', port: 0, path: '/webhook', store, onEvent: () => {} });
  process.stdout.write(`${JSON.stringify({ url: listener.url })}\n`);
  process.once('SIGTERM', async () => {
    const stats = await listener.close();
    await store.close();
    process.stdout.write(`${JSON.stringify({ stats, rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20) })}\n`);
    process.exit(0);
  });
}

function startChild(home, bare) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve', home, ...(bare ? ['--bare'] : [])], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = [];
  let buf = '';
  let wake = () => {};
  child.stdout.on('data', (d) => {
    buf += d;
    const parts = buf.split('\n');
    buf = parts.pop();
    lines.push(...parts.filter(Boolean).map((l) => JSON.parse(l)));
    wake();
  });
  const next = async () => {
    while (lines.length === 0) await new Promise((r) => (wake = r));
    return lines.shift();
  };
  return { child, next };
}

function body() {
  // ~1,059 B like the baseline: the sandbox's shape plus filler, unique per request.
  const id = randomUUID();
  return JSON.stringify({
    evento: 'RESULTADO_PROPOSTA',
    idContrato: id,
    idProposta: `PROP-${id.slice(0, 8)}`,
    status: Math.random() < 0.7 ? 'APROVADO' : 'REPROVADO',
    motivo: null,
    dataHora: new Date().toISOString(),
    detalhes: 'x'.repeat(850),
  });
}

async function runOnce(connections, seconds, bare) {
  const home = mkdtempSync(join(tmpdir(), 'econsig-bench-listener-'));
  const { child, next } = startChild(home, bare);
  try {
    const { url } = await next();
    const result = await autocannon({
      url,
      connections,
      duration: seconds,
      requests: [{ method: 'POST', headers: { 'content-type': 'application/json' }, setupRequest: (req) => ({ ...req, body: body() }) }],
    });
    child.kill('SIGTERM');
    const { stats, rssMiB } = await next();
    const ok = result['2xx'];
    let deliveries = stats.received;
    if (!bare) {
      const db = new DatabaseSync(join(home, 'econsig.db'), { readOnly: true });
      deliveries = Number(db.prepare('SELECT count(*) AS n FROM deliveries').get().n);
      db.close();
    }
    return {
      store: bare ? 'none (bare)' : 'SQLite',
      connections,
      perSecond: Math.round(ok / seconds),
      p99ms: result.latency.p99,
      sent: result.requests.sent,
      ok2xx: ok,
      non2xx: result.non2xx,
      errors: result.errors,
      storedRows: deliveries,
      listenerReceived: stats.received,
      // Requests in flight when autocannon stops are stored but their 2xx is not counted.
      consistent: deliveries === stats.received && deliveries >= ok && deliveries - ok <= connections,
      rssMiB,
    };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(home, { recursive: true, force: true });
  }
}

/** Runs the listener benchmark at 8 and 50 connections, each with the store and bare; returns one row per run. */
export async function benchListener({ seconds = 5, connections = [8, 50] } = {}) {
  const rows = [];
  for (const c of connections) for (const bare of [false, true]) rows.push(await runOnce(c, seconds, bare));
  return rows;
}

export function printListener(rows) {
  console.log('\n## listener: deliveries into the store (SQLite, synchronous=FULL, durable before the 2xx, group commit) beside the bare listener, autocannon, unique ~1 KiB bodies');
  const head = ['store', 'conns', 'deliveries/s', 'p99 ms', '2xx', 'non-2xx', 'errors', 'stored rows', 'consistent (none lost)', 'RSS MiB'];
  const data = rows.map((r) => [r.store, r.connections, r.perSecond, r.p99ms, r.ok2xx, r.non2xx, r.errors, r.storedRows, r.consistent ? 'yes' : 'NO', r.rssMiB]);
  const widths = head.map((h, i) => Math.max(h.length, ...data.map((d) => String(d[i]).length)));
  const fmt = (cells) => cells.map((c, i) => String(c).padStart(widths[i])).join('  ');
  console.log(fmt(head));
  for (const d of data) console.log(fmt(d));
  const c8 = rows.find((r) => r.connections === 8 && r.store === 'SQLite');
  const bare8 = rows.find((r) => r.connections === 8 && r.store !== 'SQLite');
  if (c8) console.log(`floor >= 2,000/s at c=8: ${c8.perSecond >= 2000 ? 'met' : 'NOT met'} (${c8.perSecond}/s, ${bare8 ? `${(c8.perSecond / bare8.perSecond).toFixed(2)}x the bare listener` : ''})`);
}

if (process.argv[2] === '--serve') {
  await serve(process.argv[3], process.argv[4] === '--bare');
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await benchListener({ seconds: Number(process.env.BENCH_SECONDS ?? 5) });
  printListener(rows);
  if (rows.some((r) => !r.consistent)) process.exitCode = 1;
}
