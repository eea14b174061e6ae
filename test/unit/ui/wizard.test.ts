import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateSubmission } from '../../../src/domain/validate.js';
import { InterruptedError, UsageError } from '../../../src/errors.js';
import { type Lang, type Message, say } from '../../../src/i18n/index.js';
import { runWizard, searchUfs } from '../../../src/ui/wizard/index.js';
import { maskValue } from '../../../src/ui/wizard/summary.js';
import { type Answer, CANCEL, ENTER, fakeIo, fakePrompts, personAnswers } from './wizard-helpers.js';

const now = new Date('2026-05-10T12:00:00-03:00');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'econsig-wizard-'));
  dirs.push(dir);
  return dir;
}

async function drive(script: Record<string, Answer[]>, options: { lang?: Lang; prefill?: unknown; savePath?: string } = {}) {
  const io = fakeIo();
  const fake = fakePrompts(script);
  const result = await runWizard({ io, lang: options.lang ?? 'en', now, prompts: fake.prompts, prefill: options.prefill, savePath: options.savePath });
  expect(fake.left(), 'every scripted answer was asked for').toEqual([]);
  return { result, fake, text: io.text() };
}

const expectedPessoa = {
  naturalidade: 'São Paulo',
  documento: { numero: '123456789', orgaoExpedidor: 'SSP', uf: 'SP', dataDeEmissao: '2015-03-21', tipoDocumento: 'RG' },
  endereco: {
    rua: 'Avenida Paulista',
    numero: '1578',
    complemento: 'Apto 12',
    bairro: 'Bela Vista',
    cidade: 'São Paulo',
    uf: 'SP',
    cep: '01310100',
  },
  estadoCivil: 'CASADO',
  email: 'maria.silva@example.com',
  telefone: '+5511912345678',
};

describe('runWizard: payout branches', () => {
  it('Pix: asks only for the key and returns a submission that validates', async () => {
    const { result, fake, text } = await drive({
      ...personAnswers(),
      payout: ['pix'],
      'contaBancaria.chavePix': ['529.982.247-25'],
      menu: ['submit'],
    });
    expect(result).toEqual({
      action: 'submit',
      submission: { idProposta: 'PROP-1001', pessoa: expectedPessoa, contaBancaria: { chavePix: '52998224725' } },
    });
    expect(validateSubmission(result.action === 'submit' ? result.submission : {}, { now }).errors).toEqual([]);
    expect(fake.asked).not.toContain('contaBancaria.compe');
    // The clerk's order: proposal, personal data, document, address, marital status, payout.
    expect(fake.asked.slice(0, 5)).toEqual(['idProposta', 'pessoa.naturalidade', 'pessoa.email', 'pessoa.telefone', 'pessoa.documento.tipoDocumento']);
    expect(text).toContain('→ 52998224725');
  });

  it('bank: asks the four bank fields, pads the branch and names the bank', async () => {
    const { result, fake, text } = await drive({
      ...personAnswers(),
      payout: ['bank'],
      'contaBancaria.compe': ['341'],
      'contaBancaria.agencia': ['123'],
      'contaBancaria.conta': ['12345-6'],
      'contaBancaria.tipo': ['CORRENTE'],
      menu: ['submit'],
    });
    expect(result.action === 'submit' && result.submission.contaBancaria).toEqual({
      compe: '341',
      agencia: '0123',
      conta: '12345-6',
      tipo: 'CORRENTE',
    });
    expect(fake.asked).not.toContain('contaBancaria.chavePix');
    expect(text).toContain('→ 0123 (zero-padded to 4 digits)');
    // Named once: in the summary (on a terminal, also as the field's hint while typing).
    expect(text).toMatch(/341 \(.*Ita[uú]/i);
    expect(text).not.toMatch(/341: .*Ita[uú]/i);
  });

  it('both: says the key wins and sends key and bank data', async () => {
    const { result, text } = await drive({
      ...personAnswers(),
      payout: ['both'],
      'contaBancaria.chavePix': ['52998224725'],
      'contaBancaria.compe': ['260'],
      'contaBancaria.agencia': ['0001'],
      'contaBancaria.conta': ['1234567-8'],
      'contaBancaria.tipo': ['POUPANCA'],
      menu: ['submit'],
    });
    expect(result.action === 'submit' && result.submission.contaBancaria).toEqual({
      chavePix: '52998224725',
      compe: '260',
      agencia: '0001',
      conta: '1234567-8',
      tipo: 'POUPANCA',
    });
    expect(text).toMatch(/Pix key; the bank data typed are replaced/);
  });
});

describe('runWizard: each answer checked where it is typed', () => {
  it('a wrong CEP is refused with the rule message under the field, then the correction is taken', async () => {
    const script = personAnswers();
    script['pessoa.endereco.cep'] = ['0131-010', '01310100'];
    script['pessoa.email'] = ['maria@', 'maria.silva@example.com'];
    script['pessoa.endereco.numero'] = ['', 's/n'];
    const { result, fake, text } = await drive({ ...script, payout: ['pix'], 'contaBancaria.chavePix': ['52998224725'], menu: ['submit'] });
    expect(fake.shown).toEqual([
      { name: 'pessoa.email', message: 'email is not a valid e-mail address, e.g. "maria@example.com"' },
      { name: 'pessoa.endereco.numero', message: 'numero must not be empty: send "0" when the property has no number' },
      { name: 'pessoa.endereco.cep', message: 'cep must be 8 digits, e.g. "01310100"' },
    ]);
    expect(result.action === 'submit' && (result.submission.pessoa as { endereco: { numero: string } }).endereco.numero).toBe('0');
    expect(text).toContain('→ 0 ("no number" sent as "0")');
  });

  it('a Pix key may not be left empty even though the schema alone allows it', async () => {
    const { fake } = await drive({
      ...personAnswers(),
      payout: ['pix'],
      'contaBancaria.chavePix': ['', '52998224725'],
      menu: ['submit'],
    });
    expect(fake.shown).toEqual([{ name: 'contaBancaria.chavePix', message: 'chavePix is required' }]);
  });

  it('in Portuguese: labels and the common rule messages are translated, field names are not', async () => {
    const script = personAnswers();
    script['pessoa.endereco.cep'] = ['123', '01310100'];
    const { fake, text } = await drive(
      { ...script, payout: ['bank'], 'contaBancaria.compe': ['341'], 'contaBancaria.agencia': ['12'], 'contaBancaria.conta': ['1-2'], 'contaBancaria.tipo': ['CORRENTE'], menu: ['submit'] },
      { lang: 'pt-BR' },
    );
    expect(fake.shown).toEqual([{ name: 'pessoa.endereco.cep', message: 'cep deve ter 8 dígitos, ex.: "01310100"' }]);
    expect(text).toContain('Resumo da submissão');
    expect(text).toContain('Dados para pagamento');
    expect(text).toContain('→ 0012 (completado com zeros até 4 dígitos)');
    expect(text).toContain('→ +5511912345678 (espaços, parênteses e hífens removidos; +55 incluído)');
    expect(text).toMatch(/Agência\s+agencia\s+0012/);
  });

  it('an issue date in the future is refused at the field itself', async () => {
    const script = personAnswers();
    script['pessoa.documento.dataDeEmissao'] = ['01/01/2027', '21/03/2015'];
    const { fake } = await drive({ ...script, payout: ['pix'], 'contaBancaria.chavePix': ['52998224725'], menu: ['submit'] });
    expect(fake.shown).toContainEqual({ name: 'pessoa.documento.dataDeEmissao', message: expect.stringContaining('is in the future (2027-01-01; today is 2026-05-10)') });
    expect(fake.asked.filter((name) => name === 'pessoa.documento.numero')).toHaveLength(1);
  });

  it('a CNH that fails its check digits is refused at the field, not at the end of the section', async () => {
    const script = personAnswers();
    script['pessoa.documento.tipoDocumento'] = ['CNH'];
    script['pessoa.documento.numero'] = ['0000000011', '00000000119'];
    const { fake } = await drive({ ...script, payout: ['pix'], 'contaBancaria.chavePix': ['52998224725'], menu: ['submit'] });
    expect(fake.shown).toContainEqual({ name: 'pessoa.documento.numero', message: expect.stringContaining('CNH') });
    expect(fake.asked.filter((name) => name === 'pessoa.documento.numero')).toHaveLength(1);
  });

  it('a bank code not in the list is said at the field; the same code again keeps it; "itau" finds 341', async () => {
    const script = personAnswers();
    const { result, text } = await drive({
      ...script,
      payout: ['bank'],
      'contaBancaria.compe': ['999', '999'],
      'contaBancaria.agencia': ['1'],
      'contaBancaria.conta': ['1-2'],
      'contaBancaria.tipo': ['CORRENTE'],
      menu: ['submit'],
    });
    expect(text).toContain('bank code 999 is not in the list of STR participants; check it (Enter again to keep it)');
    expect(result.action === 'submit' && result.submission.contaBancaria).toMatchObject({ compe: '999' });
    const byName = await drive({ ...personAnswers(), payout: ['bank'], 'contaBancaria.compe': ['itau'], 'contaBancaria.agencia': ['1'], 'contaBancaria.conta': ['1-2'], 'contaBancaria.tipo': ['CORRENTE'], menu: ['submit'] });
    expect(byName.result.action === 'submit' && byName.result.submission.contaBancaria).toMatchObject({ compe: '341' });
  });
});

describe('runWizard: pre-filled from --file', () => {
  const file = (): Record<string, unknown> => JSON.parse(readFileSync('fixtures/valid/bank-only.json', 'utf8')) as Record<string, unknown>;

  it('asks only what is missing or wrong, and says why a value from the file was refused', async () => {
    const partial = file();
    const pessoa = partial.pessoa as Record<string, Record<string, unknown>>;
    delete (pessoa as Record<string, unknown>).email;
    pessoa.endereco!.cep = '0131';
    (partial.contaBancaria as Record<string, unknown>).agencia = '12345';
    const { result, fake, text } = await drive(
      {
        'pessoa.email': ['maria.silva@example.com'],
        // A São Paulo CEP for Pernambuco: said at the field; the same again keeps it.
        'pessoa.endereco.cep': ['01310-100', '01310-100'],
        'contaBancaria.agencia': ['1234'],
        menu: ['submit'],
      },
      { prefill: partial },
    );
    expect(fake.asked).toEqual(['pessoa.email', 'pessoa.endereco.cep', 'contaBancaria.agencia', 'menu']);
    expect(text).toContain('From the file, pessoa.endereco.cep was not accepted: must be 8 digits');
    expect(fake.shown).toContainEqual({ name: 'pessoa.endereco.cep', message: expect.stringContaining('outside the postal range of PE') });
    expect(result.action).toBe('submit');
    expect(result.action === 'submit' && result.submission.contaBancaria).toMatchObject({ agencia: '1234' });
  });

  it('a complete, valid file goes straight to the summary; a file without payout asks for the choice', async () => {
    const complete = await drive({ menu: ['submit'] }, { prefill: file() });
    expect(complete.fake.asked).toEqual(['menu']);
    const noPayout = file();
    delete noPayout.contaBancaria;
    const { fake } = await drive({ payout: ['pix'], 'contaBancaria.chavePix': ['52998224725'], menu: ['submit'] }, { prefill: noPayout });
    expect(fake.asked).toEqual(['payout', 'contaBancaria.chavePix', 'menu']);
  });

  it('a draft saved before the address was reached asks the whole address, complemento included', async () => {
    const draft = { idProposta: 'PROP-1001', pessoa: { naturalidade: 'São Paulo' } };
    const answers = personAnswers();
    delete answers.idProposta;
    delete answers['pessoa.naturalidade'];
    const { fake } = await drive({ ...answers, 'pessoa.endereco.complemento': ['Apto 12'], payout: ['pix'], 'contaBancaria.chavePix': ['52998224725'], menu: ['submit'] }, { prefill: draft });
    expect(fake.asked).toContain('pessoa.endereco.complemento');
    expect(fake.asked).not.toContain('pessoa.naturalidade');
  });

  it('a CNH in the file that fails its check digits reopens the document section', async () => {
    const partial = file();
    const documento = (partial.pessoa as Record<string, Record<string, unknown>>).documento!;
    documento.tipoDocumento = 'CNH';
    documento.numero = '12345678901';
    const { fake } = await drive(
      {
        'pessoa.documento.tipoDocumento': [ENTER],
        'pessoa.documento.numero': ['00000000119'],
        'pessoa.documento.orgaoExpedidor': [ENTER],
        'pessoa.documento.uf': [ENTER],
        'pessoa.documento.dataDeEmissao': [ENTER],
        menu: ['submit'],
      },
      { prefill: partial },
    );
    expect(fake.asked[0]).toBe('pessoa.documento.tipoDocumento');
  });
});

describe('runWizard: summary and the final choice', () => {
  const complete = (): Record<string, Answer[]> => ({
    ...personAnswers(),
    payout: ['pix'],
    'contaBancaria.chavePix': ['52998224725'],
  });

  it('shows every field with sensitive numbers partly masked', async () => {
    const { text } = await drive({ ...complete(), menu: ['submit'] });
    const summary = text.slice(text.indexOf('Summary of the submission'));
    expect(summary).toMatch(/Document number\s+numero\s+\*{4}6789/);
    expect(summary).toMatch(/Phone\s+telefone\s+\+55\*{4}5678/);
    expect(summary).toMatch(/E-mail\s+email\s+m\*{3}@\*{3}\.com/);
    expect(summary).toMatch(/Pix key\s+chavePix\s+\*{3}\.982\.247-\*{2}/);
    expect(summary).toMatch(/Marital status\s+estadoCivil\s+CASADO \(Married\)/);
    expect(summary).toMatch(/CEP\s+cep\s+01310100/);
    expect(summary).not.toContain('123456789');
    expect(summary).not.toContain('52998224725');
    expect(summary).not.toContain('912345678');
  });

  it('edit a section: asks it again with the current answers, then submits', async () => {
    const script = complete();
    script['pessoa.endereco.rua'] = ['Avenida Paulista', ENTER];
    script['pessoa.endereco.numero'] = ['1578', '1000'];
    script['pessoa.endereco.complemento'] = ['Apto 12', ENTER];
    script['pessoa.endereco.bairro'] = ['Bela Vista', ENTER];
    script['pessoa.endereco.cidade'] = ['São Paulo', ENTER];
    script['pessoa.endereco.uf'] = ['SP', ENTER];
    script['pessoa.endereco.cep'] = ['01310100', ENTER];
    const { result, fake } = await drive({ ...script, menu: ['edit', 'submit'], edit: ['address'] });
    expect(fake.defaults.get('pessoa.endereco.rua')).toBe('Avenida Paulista');
    expect(result.action === 'submit' && (result.submission.pessoa as { endereco: unknown }).endereco).toMatchObject({
      numero: '1000',
      rua: 'Avenida Paulista',
    });
  });

  it('save: writes pretty JSON readable only by its owner, offering the --save path', async () => {
    const path = join(tempDir(), 'draft.json');
    const { result, fake } = await drive({ ...complete(), menu: ['save'], 'save-path': [ENTER] }, { savePath: path });
    expect(result).toEqual({ action: 'saved', path });
    expect(fake.defaults.get('save-path')).toBe(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const saved = readFileSync(path, 'utf8');
    expect(saved).toContain('\n  "idProposta": "PROP-1001",\n');
    expect(validateSubmission(JSON.parse(saved), { now }).errors).toEqual([]);
  });

  it('save over an existing file asks first', async () => {
    const dir = tempDir();
    const existing = join(dir, 'a.json');
    writeFileSync(existing, 'keep me');
    const other = join(dir, 'b.json');
    const { result } = await drive({ ...complete(), menu: ['save'], 'save-path': [existing, other], overwrite: ['n'] });
    expect(result).toEqual({ action: 'saved', path: other });
    expect(readFileSync(existing, 'utf8')).toBe('keep me');
  });

  it('quit asks first: no goes back to the menu, yes returns quit', async () => {
    const { result, fake } = await drive({ ...complete(), menu: ['quit', 'quit'], 'quit-confirm': ['n', 'y'] });
    expect(result).toEqual({ action: 'quit' });
    expect(fake.asked.filter((name) => name === 'menu')).toHaveLength(2);
  });

  it('the section menu has a way back to the summary', async () => {
    const { result, fake } = await drive({ ...complete(), menu: ['edit', 'submit'], edit: ['back'] });
    expect(result.action).toBe('submit');
    expect(fake.asked.slice(-3)).toEqual(['menu', 'edit', 'menu']);
  });

  it('reveal shows the masked digits in full until the next choice', async () => {
    const { text } = await drive({ ...complete(), menu: ['reveal', 'submit'] });
    expect(text).toMatch(/Document number\s+numero\s+\*{4}6789/);
    expect(text).toMatch(/Document number\s+numero\s+123456789/);
  });
});

describe('runWizard: leaving', () => {
  it('Ctrl-C saves what was entered as a draft (0600) without asking, names it, and exits 130', async () => {
    const dir = join(tempDir(), 'drafts');
    const io = fakeIo();
    const script = personAnswers();
    script['pessoa.endereco.bairro'] = [CANCEL];
    const fake = fakePrompts(script);
    const run = runWizard({ io, lang: 'en', now, prompts: fake.prompts, draftDir: dir });
    await expect(run).rejects.toBeInstanceOf(InterruptedError);
    const error = (await run.catch((e: unknown) => e)) as InterruptedError;
    expect(error.exitCode).toBe(130);
    const [name] = readdirSync(dir);
    expect(name).toMatch(/^PROP-1001-draft-\d{8}T\d{6}\.json$/);
    const path = join(dir, name as string);
    expect(error.message).toContain(path);
    expect(error.message).toContain(`econsig submit -i --file ${path}`);
    const saved = JSON.parse(readFileSync(path, 'utf8')) as { pessoa: { endereco: Record<string, string> } };
    expect(saved.pessoa.endereco).toEqual({ rua: 'Avenida Paulista', numero: '1578', complemento: 'Apto 12' });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(fake.asked.at(-1)).toBe('pessoa.endereco.bairro');
  });

  it('a second draft of the same proposal at the same second gets its own file', async () => {
    const dir = join(tempDir(), 'drafts');
    for (let i = 0; i < 2; i++) {
      const fake = fakePrompts({ idProposta: ['PROP-1001'], 'pessoa.naturalidade': [CANCEL] });
      await expect(runWizard({ io: fakeIo(), lang: 'en', now, prompts: fake.prompts, draftDir: dir })).rejects.toBeInstanceOf(InterruptedError);
    }
    expect(readdirSync(dir).sort()).toEqual(['PROP-1001-draft-20260510T150000-2.json', 'PROP-1001-draft-20260510T150000.json']);
  });

  it('a draft that cannot be written is shown on the screen instead', async () => {
    const file = join(tempDir(), 'not-a-folder');
    writeFileSync(file, '');
    const io = fakeIo();
    const fake = fakePrompts({ idProposta: ['PROP-1001'], 'pessoa.naturalidade': [CANCEL] });
    await expect(runWizard({ io, lang: 'en', now, prompts: fake.prompts, draftDir: join(file, 'drafts') })).rejects.toThrow('Cancelled; nothing was sent.');
    expect(io.text()).toContain('Could not save a draft');
    expect(io.text()).toContain('"idProposta": "PROP-1001"');
  });

  it('Ctrl-C before any answer leaves at once (exit 130)', async () => {
    const fake = fakePrompts({ idProposta: [CANCEL] });
    const error = await runWizard({ io: fakeIo(true, 'pt-BR'), lang: 'pt-BR', now, prompts: fake.prompts }).catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 130 });
    expect(say('pt-BR', (error as InterruptedError).text as Message)).toBe('Cancelado; nada foi enviado.');
  });

  it('without a terminal it never starts: a usage error (exit 2) that says to pass --file', async () => {
    const fake = fakePrompts({});
    const run = runWizard({ io: fakeIo(false), lang: 'en', now, prompts: fake.prompts });
    await expect(run).rejects.toBeInstanceOf(UsageError);
    await expect(run).rejects.toMatchObject({ exitCode: 2, hint: expect.stringContaining('--file') });
    expect(fake.asked).toEqual([]);
  });
});

describe('pieces', () => {
  it.each([
    ['pessoa.documento.numero', '123456789', '****6789'],
    ['pessoa.documento.numero', '00000000119', '****0119'],
    ['pessoa.documento.numero', '1234', '****34'],
    ['pessoa.documento.numero', '12345', '****45'],
    ['contaBancaria.conta', '1234567-8', '****67-8'],
    ['pessoa.telefone', '+5511912345678', '+55****5678'],
    ['pessoa.email', 'maria.silva@example.com', 'm***@***.com'],
    ['contaBancaria.chavePix', '52998224725', '***.982.247-**'],
    ['contaBancaria.chavePix', 'maria@example.com', 'm***@***.com'],
    ['pessoa.endereco.cep', '01310100', '01310100'],
  ] as const)('mask %s %s → %s', (path, value, masked) => {
    expect(maskValue(path, value)).toBe(masked);
  });

  it.each([
    ['sp', 'SP'],
    ['rio', 'RJ'],
    ['parana', 'PR'],
    ['GOI', 'GO'],
  ])('searching UFs for %s offers %s first', (term, uf) => {
    expect(searchUfs(term)[0]?.value).toBe(uf);
  });

  it('searching UFs for nothing offers all 27', () => {
    expect(searchUfs('')).toHaveLength(27);
  });
});

describe('renderSummary at 80x24', () => {
  it('a terminal too short for the table gets one line per section', async () => {
    const { renderSummary } = await import('../../../src/ui/wizard/summary.js');
    const { readPrefill } = await import('../../../src/ui/wizard/fields.js');
    const { createTheme } = await import('../../../src/ui/theme.js');
    const draft = readPrefill(JSON.parse(readFileSync(join('fixtures', 'valid', 'bank-and-pix.json'), 'utf8')), 'en').draft;
    const theme = createTheme(fakeIo());
    const full = renderSummary(draft, 'pt-BR', theme, [], {});
    const short = renderSummary(draft, 'pt-BR', theme, [], { rows: 24 });
    expect(full.length + 8).toBeGreaterThan(24);
    expect(short.length + 8).toBeLessThanOrEqual(24);
    expect(short.join('\n')).toContain('Endereço: ');
    expect(renderSummary(draft, 'pt-BR', theme, [], { rows: 60 })).toEqual(full);
  });

  it('at 80 columns no line of the short summary is longer than 80, and no value is split', async () => {
    const { renderSummary } = await import('../../../src/ui/wizard/summary.js');
    const { readPrefill } = await import('../../../src/ui/wizard/fields.js');
    const { createTheme } = await import('../../../src/ui/theme.js');
    const document = JSON.parse(readFileSync(join('fixtures', 'valid', 'bank-and-pix.json'), 'utf8'));
    document.pessoa.endereco.rua = 'Avenida Brigadeiro Faria Lima';
    document.pessoa.endereco.complemento = 'Conjunto 101, Torre Norte';
    document.pessoa.email = 'maria.aparecida.dos.santos@example.com';
    const draft = readPrefill(document, 'en').draft;
    const theme = createTheme(fakeIo());
    const wide = renderSummary(draft, 'pt-BR', theme, [], { rows: 24 });
    const short = renderSummary(draft, 'pt-BR', theme, [], { rows: 24, columns: 80 });
    expect(Math.max(...wide.map((line) => line.length))).toBeGreaterThan(80);
    expect(Math.max(...short.map((line) => line.length))).toBeLessThanOrEqual(80);
    expect(short.length + 8).toBeLessThanOrEqual(24);
    const address = short.join('\n');
    expect(address).toContain('Avenida Brigadeiro Faria Lima');
    expect(address).toContain('Conjunto 101, Torre Norte');
    // The same values in the same order, only broken between them.
    const joined = (lines: string[]) => lines.join(' ').replace(/ ·\s+/g, ' · ').replace(/\s+/g, ' ');
    expect(joined(short)).toBe(joined(wide));
  });
});

describe('the summary at 80 columns (issue 24)', () => {
  it('an address exactly 80 characters long: no line over 80, no lone separator, every word kept in order', async () => {
    const { renderSummary } = await import('../../../src/ui/wizard/summary.js');
    const { readPrefill } = await import('../../../src/ui/wizard/fields.js');
    const { createTheme } = await import('../../../src/ui/theme.js');
    const document = JSON.parse(readFileSync(join('fixtures', 'valid', 'bank-and-pix.json'), 'utf8'));
    document.pessoa.endereco.rua = 'Rua Doutor Francisco de Paula Vicente de Azevedo Sobrinho, Condomínio Jardim Abc';
    expect(document.pessoa.endereco.rua).toHaveLength(80);
    const draft = readPrefill(document, 'en').draft;
    const theme = createTheme(fakeIo());
    const short = renderSummary(draft, 'pt-BR', theme, [], { rows: 24, columns: 80 });
    expect(short.filter((line) => line.length > 80)).toEqual([]);
    expect(short.filter((line) => /^\s*·\s*$/.test(line) || / ·$/.test(line))).toEqual([]);
    const words = (lines: string[]) => lines.join(' ').replace(/·/g, ' ').split(/\s+/).filter(Boolean);
    expect(words(short)).toEqual(words(renderSummary(draft, 'pt-BR', theme, [], { rows: 24 })));
  });
});
