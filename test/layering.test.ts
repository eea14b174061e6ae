/**
 * The dependency direction of docs/design.md, checked on the source: which folder of src/
 * may import which, and who may write to the terminal. A failure names the file and the
 * import that breaks the rule.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

/** Every .ts file under src/, as a path relative to src/ with forward slashes. */
const files = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.split('\\').join('/'));

/** The modules of ours a file imports (static, `export ... from` and dynamic), relative to src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(src, file), 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)'(\.{1,2}\/[^']+)'/gm)) {
    found.push(posix.normalize(posix.join(posix.dirname(file), match[1] as string)));
  }
  return found;
}

/** `file → import` for each import of a file under `folder` that `allowed` refuses. */
function breaches(folder: string, allowed: (target: string) => boolean): string[] {
  return files
    .filter((f) => f.startsWith(folder))
    .flatMap((f) => importsOf(f).filter((target) => !allowed(target)).map((target) => `${f} → ${target}`));
}

const LEAF_HELPERS = ['duration.js', 'errors.js', 'redact.js', 'suggest.js'];
const isUnder = (target: string, ...folders: string[]) => folders.some((folder) => target.startsWith(folder));
const isCli = (target: string) => /^(cli|cli-inputs|cli-parsers|main)\.js$/.test(target);

describe('layering (docs/design.md "Dependency direction")', () => {
  it('domain/ imports only domain/, i18n/ and the leaf helpers', () => {
    expect(breaches('domain/', (t) => isUnder(t, 'domain/', 'i18n/') || LEAF_HELPERS.includes(t))).toEqual([]);
  });

  it('i18n/ (the message catalogue) imports nothing of ours outside i18n/ but the masks of a person\'s data (redact.ts)', () => {
    expect(breaches('i18n/', (t) => isUnder(t, 'i18n/') || t === 'redact.js')).toEqual([]);
  });

  it('the leaf helpers (duration.ts, errors.ts, redact.ts, suggest.ts) import nothing of ours but the catalogue (i18n/, for an error\'s message)', () => {
    expect(LEAF_HELPERS.flatMap((helper) => importsOf(helper.replace(/\.js$/, '.ts'))).filter((t) => !isUnder(t, 'i18n/'))).toEqual([]);
  });

  it('people\'s text is said in the run\'s language by ui/, the help and the writers of documents for people; elsewhere say() speaks English only (an Error\'s message, the record)', () => {
    const inTheRunsLanguage = ['cli.ts', 'cli-help.ts', 'sheets/results.ts', 'sheets/xlsx-writer.ts', 'flows/junit.ts'];
    const sayers = files.filter((f) => !isUnder(f, 'ui/', 'i18n/') && !inTheRunsLanguage.includes(f));
    const breaches = sayers.flatMap((f) => [...readFileSync(join(src, f), 'utf8').matchAll(/\bsay\((?!'en')[^,)]*/g)].map((m) => `${f}: ${m[0]}`));
    expect(breaches).toEqual([]);
  });

  it('record/ and settings/ import nothing from cli-inputs.ts, domain/, flows/, commands/ or ui/', () => {
    const below = (t: string) => !isCli(t) && !isUnder(t, 'domain/', 'flows/', 'commands/', 'ui/');
    expect([...breaches('record/', below), ...breaches('settings/', below)]).toEqual([]);
  });

  it('settings/ imports nothing of the record, and webhook/ nothing of the record or settings', () => {
    expect([...breaches('settings/', (t) => !isUnder(t, 'record/')), ...breaches('webhook/', (t) => !isUnder(t, 'record/', 'settings/'))]).toEqual([]);
  });

  it('service/ and webhook/ know nothing of the CLI, its commands, flows or terminal', () => {
    const library = (t: string) => !isCli(t) && !isUnder(t, 'commands/', 'flows/', 'ui/');
    expect([...breaches('service/', library), ...breaches('webhook/', library)]).toEqual([]);
  });

  it('flows/ reach the terminal only through what commands pass in: no ui/, commands/ or CLI import', () => {
    expect(breaches('flows/', (t) => !isCli(t) && !isUnder(t, 'commands/', 'ui/'))).toEqual([]);
  });

  it('only ui/ writes to stdout or stderr (main.ts builds the streams ui/ writes to)', () => {
    const writers = files.filter(
      (f) => !f.startsWith('ui/') && f !== 'main.ts' && /process\.(stdout|stderr)|\bconsole\.|\.(stdout|stderr)\.write\(/.test(readFileSync(join(src, f), 'utf8')),
    );
    expect(writers).toEqual([]);
  });

  it('no import loop between the folders of src/ (type-only imports included)', () => {
    // A folder of src/ is one node; a file at the top of src/ is a node of its own.
    const unit = (path: string) => (path.includes('/') ? `${path.split('/')[0]}/` : path.replace(/\.js$/, '.ts'));
    const edges = new Map<string, Set<string>>();
    for (const file of files) {
      for (const target of importsOf(file)) {
        const [from, to] = [unit(file), unit(target)];
        if (from !== to) edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    }
    // A loop is a path back to where it started; each is named by the first found.
    const loops: string[] = [];
    const onPath: string[] = [];
    const done = new Set<string>();
    const visit = (node: string): void => {
      const at = onPath.indexOf(node);
      if (at >= 0) return void loops.push([...onPath.slice(at), node].join(' → '));
      if (done.has(node)) return;
      onPath.push(node);
      for (const next of edges.get(node) ?? []) visit(next);
      onPath.pop();
      done.add(node);
    };
    for (const node of edges.keys()) visit(node);
    expect(loops).toEqual([]);
  });
});

