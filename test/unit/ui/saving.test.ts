/**
 * The wizard's drafts and saved files (src/ui/wizard/saving.ts) on real files: written
 * through src/safe-file.ts, 0600 in a folder made 0700; a link or a FIFO where a draft
 * would go is never opened (the next name is taken), and one at a chosen path is refused
 * and the question asked again.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTheme } from '../../../src/ui/theme.js';
import { saveDraft, saveToChosenFile } from '../../../src/ui/wizard/saving.js';
import { fakeIo, fakePrompts } from './wizard-helpers.js';

const submission = { idProposta: 'PROP-1001', pessoa: { naturalidade: 'São Paulo' } };
const now = new Date('2026-03-02T10:20:30Z');
let dir: string;
let victim: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'econsig-saving-'));
  victim = join(dir, 'victim.txt');
  writeFileSync(victim, 'untouched\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const mode = (path: string): number => statSync(path).mode & 0o777;

function keeper() {
  const io = fakeIo();
  return { keeper: { io, lang: 'en' as const, theme: createTheme(io), now }, io };
}

describe('saveDraft', () => {
  it('writes 0600 in a drafts folder it makes 0700', async () => {
    const drafts = join(dir, 'home', 'drafts');
    const path = await saveDraft(keeper().keeper, submission, drafts);
    expect(path).toBe(join(drafts, 'PROP-1001-draft-20260302T102030.json'));
    expect(mode(join(dir, 'home'))).toBe(0o700);
    expect(mode(drafts)).toBe(0o700);
    expect(mode(path as string)).toBe(0o600);
    expect(JSON.parse(readFileSync(path as string, 'utf8'))).toEqual(submission);
  });

  it('never opens a link or a FIFO at a draft\'s name: the next free name is taken', async () => {
    const drafts = join(dir, 'drafts');
    await saveDraft(keeper().keeper, {}, drafts);
    symlinkSync(victim, join(drafts, 'PROP-1001-draft-20260302T102030.json'));
    execFileSync('mkfifo', [join(drafts, 'PROP-1001-draft-20260302T102030-2.json')]);
    const path = await saveDraft(keeper().keeper, submission, drafts);
    expect(path).toBe(join(drafts, 'PROP-1001-draft-20260302T102030-3.json'));
    expect(JSON.parse(readFileSync(path as string, 'utf8'))).toEqual(submission);
    expect(readFileSync(victim, 'utf8')).toBe('untouched\n');
    expect(lstatSync(join(drafts, 'PROP-1001-draft-20260302T102030.json')).isSymbolicLink()).toBe(true);
    expect(readdirSync(drafts).filter((name) => name.endsWith('.econsig-tmp'))).toEqual([]);
  });
});

describe('saveToChosenFile', () => {
  it.each(['link', 'fifo'])('a %s at the path typed: refused, named, and asked again; the next path written 0600', async (kind) => {
    const planted = join(dir, 'planted.json');
    if (kind === 'link') symlinkSync(victim, planted);
    else execFileSync('mkfifo', [planted]);
    const chosen = join(dir, 'proposta.json');
    const { keeper: k, io } = keeper();
    const fake = fakePrompts({ 'save-path': [planted, chosen] });
    expect(await saveToChosenFile(k, fake.prompts, submission)).toBe(chosen);
    expect(io.text()).toContain(`will not write ${planted}: it is ${kind === 'link' ? 'a symbolic link' : 'a named pipe (FIFO)'}`);
    expect(fake.asked).toEqual(['save-path', 'save-path']);
    expect(readFileSync(victim, 'utf8')).toBe('untouched\n');
    expect(mode(chosen)).toBe(0o600);
    expect(JSON.parse(readFileSync(chosen, 'utf8'))).toEqual(submission);
  });

  it('a file there is replaced only when the clerk says so, and is then 0600', async () => {
    const chosen = join(dir, 'proposta.json');
    writeFileSync(chosen, '{}\n', { mode: 0o644 });
    const fake = fakePrompts({ 'save-path': [chosen, chosen], overwrite: ['n', 'y'] });
    expect(await saveToChosenFile(keeper().keeper, fake.prompts, submission)).toBe(chosen);
    expect(fake.asked).toEqual(['save-path', 'overwrite', 'save-path', 'overwrite']);
    expect(mode(chosen)).toBe(0o600);
    expect(JSON.parse(readFileSync(chosen, 'utf8'))).toEqual(submission);
  });
});
