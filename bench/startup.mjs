// Start-up: `econsig --version` and `--help` against bare `node -e 0`, run pair by pair
// so that the machine's noise hits both sides alike. Goals (issue 12, Node 24): --version and
// --help within 1.3x of bare node, validate of one file within 1.6x.
import { bin, median, range, runNode, table } from './lib.mjs';

export async function benchStartup({ runs = 20, warmups = 3 } = {}) {
  const variants = [
    ['econsig --version', [bin, '--version']],
    ['econsig --help', [bin, '--help']],
    ['econsig validate (1 file)', [bin, 'validate', 'fixtures/valid/pix-only.json']],
  ];
  const results = [];
  for (const [name, args] of variants) {
    for (let i = 0; i < warmups; i++) {
      runNode(['-e', '0']);
      runNode(args);
    }
    const base = [];
    const ours = [];
    const ratios = [];
    const rss = [];
    for (let i = 0; i < runs; i++) {
      const b = runNode(['-e', '0']);
      const o = runNode(args);
      if (o.status !== 0) throw new Error(`${name} exited ${o.status}: ${o.stderr}`);
      base.push(b.ms);
      ours.push(o.ms);
      ratios.push(o.ms / b.ms);
      rss.push(o.rssMiB);
    }
    results.push({ name, nodeMs: median(base), ms: median(ours), range: range(ours), ratio: median(ratios), rssMiB: median(rss) });
  }
  return results;
}

export function printStartup(results) {
  console.log('\n## Start-up (median of pairs, bare node = `node -e 0`)');
  console.log(
    table([
      ['command', 'node -e 0 ms', 'econsig ms (min–max)', 'ratio', 'peak RSS MiB'],
      ...results.map((r) => [r.name, r.nodeMs.toFixed(0), `${r.ms.toFixed(0)} (${r.range})`, r.ratio.toFixed(2), r.rssMiB.toFixed(1)]),
    ]),
  );
  const verdict = (r, goal) => `${r.name} ${r.ratio.toFixed(2)}x (goal <= ${goal}x: ${r.ratio <= goal ? 'met' : 'NOT met'})`;
  console.log(results.map((r) => verdict(r, r.name.includes('validate') ? 1.6 : 1.3)).join('; '));
}

if (import.meta.url === `file://${process.argv[1]}`) printStartup(await benchStartup());
