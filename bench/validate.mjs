// validate over 10,000 generated files (10% invalid, one realistic fault each), whole
// process, against a floor script that only reads and JSON-parses the same files.
// Goals (issue 12, Node 24): >= 20,000 files/s, >= 0.5x the floor, peak RSS < 100 MiB.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bin, median, root, runNode, table } from './lib.mjs';

const faults = [
  (s) => (s.pessoa.endereco.cep = '0131010'),
  (s) => (s.pessoa.endereco.uf = 'XX'),
  (s) => (s.pessoa.telefone = '+5520987654321'),
  (s) => (s.pessoa.documento.dataDeEmissao = '2024-02-30'),
  (s) => (s.contaBancaria = { compe: '260', agencia: '0001' }),
  (s) => (s.contaBancaria.chavePix = '52998224726'),
  (s) => (s.pessoa.estadoCivil = 'CASADA'),
  (s) => (s.pessoa.email = 'maria@'),
  (s) => delete s.pessoa.documento,
  (s) => (s.contaBancaria.agencia = '12345'),
];

export function generateFiles(dir, count = 10_000) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const base = JSON.parse(readFileSync(join(root, 'fixtures/valid/bank-and-pix.json'), 'utf8'));
  for (let i = 0; i < count; i++) {
    const s = structuredClone(base);
    s.idProposta = `PROP-${100000 + i}`;
    s.pessoa.endereco.numero = String(1 + (i % 3000));
    if (i % 10 === 9) faults[Math.floor(i / 10) % faults.length](s);
    writeFileSync(join(dir, `s${String(i).padStart(5, '0')}.json`), JSON.stringify(s, null, 4));
  }
}

const FLOOR = `
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const dir = process.argv[1];
let n = 0;
for (const name of readdirSync(dir).sort()) { JSON.parse(readFileSync(join(dir, name), 'utf8')); n++; }
if (n === 0) process.exit(1);
`;

// In one process, the same files, the same (synchronous) I/O: econsig's own per-file path
// (read, parse, normalise, check, report) against read + JSON.parse, alternating, five
// rounds. Round 1 is cold (nothing optimised yet); rounds 2-5 are the steady state. This is
// the "in-process" ratio of docs/performance.md; the whole-process one above is stricter.
const IN_PROCESS = `
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const [, dir, distUrl] = process.argv;
(async () => {
  const { expandInputs } = await import(distUrl + '/flows/inputs.js');
  const { checkSource } = await import(distUrl + '/flows/validate-files.js');
  const options = { cwd: dir, stdin: {}, now: new Date(), strict: false };
  const rounds = [];
  for (let round = 0; round < 5; round++) {
    let t = performance.now();
    for (const name of readdirSync(dir).sort()) JSON.parse(readFileSync(join(dir, name), 'utf8'));
    const floorMs = performance.now() - t;
    t = performance.now();
    let invalid = 0;
    for (const source of expandInputs([dir], dir)) if (!checkSource(source, options).ok) invalid++;
    const oursMs = performance.now() - t;
    rounds.push({ floorMs, oursMs, invalid });
  }
  console.log(JSON.stringify(rounds));
})();
`;

export async function benchValidate({ count = 10_000, runs = 5 } = {}) {
  const dir = join(root, 'bench/.data/validate');
  generateFiles(dir, count);
  const floor = [];
  const ours = [];
  const rssFloor = [];
  const rssOurs = [];
  let invalid = 0;
  for (let i = 0; i < runs; i++) {
    const f = runNode(['-e', FLOOR, dir]);
    if (f.status !== 0) throw new Error(`floor failed: ${f.stderr}`);
    floor.push(f.ms);
    rssFloor.push(f.rssMiB);
    const o = runNode([bin, 'validate', dir, '--json'], { stdout: 'pipe' });
    if (o.status !== 1) throw new Error(`validate exited ${o.status}, expected 1 (10% invalid): ${o.stderr}`);
    const doc = JSON.parse(o.stdout);
    invalid = doc.files.filter((file) => !file.ok).length;
    ours.push(o.ms);
    rssOurs.push(o.rssMiB);
  }
  const inProcess = JSON.parse(runNode(['-e', IN_PROCESS, dir, new URL('../dist', import.meta.url).href], { stdout: 'pipe' }).stdout);
  if (inProcess.some((r) => r.invalid !== invalid)) throw new Error('in-process run found a different number of invalid files');
  const ratio = (r) => r.floorMs / r.oursMs;
  return {
    count,
    invalid,
    coldRatio: ratio(inProcess[0]),
    warmRatio: median(inProcess.slice(1).map(ratio)),
    warmRate: median(inProcess.slice(1).map((r) => count / (r.oursMs / 1000))),
    floorRate: count / (median(floor) / 1000),
    rate: count / (median(ours) / 1000),
    floorRssMiB: median(rssFloor),
    rssMiB: median(rssOurs),
  };
}

export function printValidate(r) {
  console.log(`\n## validate: ${r.count} files, ${r.invalid} invalid, whole process, median of runs`);
  console.log(
    table([
      ['', 'files/s', 'peak RSS MiB'],
      ['floor: read + JSON.parse', r.floorRate.toFixed(0), r.floorRssMiB.toFixed(1)],
      ['econsig validate --json', r.rate.toFixed(0), r.rssMiB.toFixed(1)],
    ]),
  );
  const ratio = r.rate / r.floorRate;
  const met = (ok) => (ok ? 'met' : 'NOT met');
  console.log(
    `ratio to floor: ${ratio.toFixed(2)}x (goal >= 0.5x: ${met(ratio >= 0.5)}); ${r.rate.toFixed(0)} files/s (goal >= 20,000: ${met(r.rate >= 20_000)}); ` +
      `${r.rssMiB.toFixed(1)} MiB (goal < 100: ${met(r.rssMiB < 100)})`,
  );
  console.log(
    `in one process, same files and I/O, against read + JSON.parse: first round (cold) ${r.coldRatio.toFixed(2)}x; ` +
      `rounds 2-5 (steady) ${r.warmRatio.toFixed(2)}x, ${r.warmRate.toFixed(0)} files/s`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) printValidate(await benchValidate());
