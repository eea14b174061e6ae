// submit --wait: 40 files whose results arrive 1 s after each 202, at --concurrency 4
// (issue 14). Waiting must not hold a slot: the batch should take about the send time of
// the same batch without --wait, plus the 1 s of one result. Slots held while waiting
// would take at least 40 / 4 x 1 s = 10 s.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, startSandboxProcess, median, root, runNode, table } from './lib.mjs';

const COUNT = 40;
const CONCURRENCY = 4;
const DELAY_S = 1;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}


async function once(files, wait) {
  const port = await freePort();
  const sandbox = await startSandboxProcess(['--delay', String(DELAY_S), '--webhook-url', `http://127.0.0.1:${port}/webhook`]);
  const home = mkdtempSync(join(tmpdir(), 'econsig-bench-wait-'));
  try {
    const args = [bin, 'submit', files, '--concurrency', String(CONCURRENCY), '--json'];
    if (wait) args.push('--wait', '--listen', `127.0.0.1:${port}`, '--timeout', '60');
    const r = runNode(args, { env: { ECONSIG_HOME: home, ECONSIG_TOKEN: sandbox.token, ECONSIG_BASE_URL: sandbox.baseUrl }, stdout: 'pipe' });
    const outcomes = JSON.parse(r.stdout).results.map((x) => x.outcome);
    const expected = wait ? 'approved' : 'accepted';
    if (outcomes.filter((o) => o === expected).length !== COUNT) throw new Error(`expected ${COUNT} ${expected}, got ${outcomes.join(',')} (exit ${r.status})`);
    return r.ms;
  } finally {
    await sandbox.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

export async function benchWait({ runs = 3 } = {}) {
  const dir = join(root, 'bench/.data/wait');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const base = JSON.parse(readFileSync(join(root, 'fixtures/valid/bank-only.json'), 'utf8'));
  // PROP-2001..2040: approved in the bundled sandbox catalogue, one worker each.
  for (let i = 0; i < COUNT; i++) writeFileSync(join(dir, `PROP-${2001 + i}.json`), JSON.stringify({ ...base, idProposta: `PROP-${2001 + i}` }));
  const send = [];
  const wait = [];
  for (let i = 0; i < runs; i++) {
    send.push(await once(dir, false));
    wait.push(await once(dir, true));
  }
  return { send: median(send), wait: median(wait) };
}

export function printWait({ send, wait }) {
  console.log(`\n## submit --wait: ${COUNT} files, results ${DELAY_S} s after each 202, --concurrency ${CONCURRENCY}, whole process, median`);
  console.log(
    table([
      ['run', 'seconds', 'reference'],
      ['without --wait (send time)', (send / 1000).toFixed(2), ''],
      ['with --wait', (wait / 1000).toFixed(2), `send time + ${DELAY_S} s = ${(send / 1000 + DELAY_S).toFixed(2)}; goal < 8; slots held while waiting: >= ${(COUNT / CONCURRENCY) * DELAY_S}`],
    ]),
  );
}
