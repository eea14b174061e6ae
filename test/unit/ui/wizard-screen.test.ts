// The real @inquirer prompts (imported lazily by src/ui/prompts.ts), rendered on
// @inquirer/testing's virtual screen: must be imported before the code under test.
import { screen } from '@inquirer/testing/vitest';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InterruptedError } from '../../../src/errors.js';
import { type Message, say } from '../../../src/i18n/index.js';
import { runWizard } from '../../../src/ui/wizard/index.js';
import { fakeIo } from './wizard-helpers.js';

const now = new Date('2026-05-10T12:00:00-03:00');

async function answer(text: string, expected?: string): Promise<void> {
  if (expected) expect(screen.getScreen()).toContain(expected);
  if (text) screen.type(text);
  screen.keypress('enter');
  await screen.next();
}

describe('wizard with the real prompts', () => {
  it('types a whole Pix submission; a wrong CEP shows its message under the field and is corrected in place', async () => {
    const io = fakeIo();
    const run = runWizard({ io, lang: 'en', now });
    await screen.next();
    await answer('PROP-1001', 'Proposal id (e.g. PROP-1001):');
    await answer('São Paulo', 'City of birth:');
    await answer('maria.silva@example.com', 'E-mail:');
    await answer('11912345678', 'Phone');
    expect(screen.getScreen()).toContain('Document type');
    await answer(''); // RG, the first choice
    await answer('123456789', 'Document number');
    await answer('SSP', 'Issuing body');
    expect(screen.getScreen()).toContain('State of issue');
    screen.type('sao p');
    await screen.next();
    expect(screen.getScreen()).toContain('SP  São Paulo');
    await answer('');
    await answer('21/03/2015', 'Issue date (DD/MM/YYYY):');
    await answer('Avenida Paulista', 'Street');
    await answer('s/n', 'Number');
    await answer('', 'Complement');
    await answer('Bela Vista', 'Neighbourhood');
    await answer('São Paulo', 'City:');
    screen.type('SP');
    await screen.next();
    await answer('');

    screen.type('0131010');
    screen.keypress('enter');
    await screen.next();
    expect(screen.getScreen()).toContain('cep must be 8 digits, e.g. "01310100"');
    screen.type('\x7f\x7f-100'); // two backspaces, then the rest: 01310-100
    screen.keypress('enter');
    await screen.next();

    expect(screen.getScreen()).toContain('Marital status');
    screen.keypress('down');
    await answer(''); // CASADO, the second choice
    expect(screen.getScreen()).toContain('How will the worker be paid?');
    await answer(''); // Pix key
    await answer('52998224725', 'Pix key');
    expect(screen.getScreen()).toContain('What now?');
    screen.keypress('enter');

    const result = await run;
    expect(result).toMatchObject({
      action: 'submit',
      submission: {
        idProposta: 'PROP-1001',
        pessoa: {
          telefone: '+5511912345678',
          documento: { tipoDocumento: 'RG', uf: 'SP', dataDeEmissao: '2015-03-21' },
          endereco: { numero: '0', uf: 'SP', cep: '01310100' },
          estadoCivil: 'CASADO',
        },
        contaBancaria: { chavePix: '52998224725' },
      },
    });
    const text = io.text();
    expect(text).toContain('→ +5511912345678 (+55 added)');
    expect(text).toContain('→ 2015-03-21 (DD/MM/YYYY rewritten as YYYY-MM-DD)');
    expect(text).toMatch(/Pix key\s+chavePix\s+\*\*\*\.982\.247-\*\*/);
  });

  it('Ctrl-C on a real prompt saves a draft without asking and leaves with 130', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'econsig-wizard-screen-'));
    try {
      const run = runWizard({ io: fakeIo(), lang: 'pt-BR', now, draftDir: dir });
      const settled = run.catch((error: unknown) => error);
      await screen.next();
      await answer('PROP-1001', 'Id da proposta');
      expect(screen.getScreen()).toContain('Naturalidade');
      screen.keypress({ name: 'c', ctrl: true });
      const error = await settled;
      expect(error).toBeInstanceOf(InterruptedError);
      expect((error as InterruptedError).exitCode).toBe(130);
      const [name] = readdirSync(dir);
      expect(say('pt-BR', (error as InterruptedError).text as Message)).toContain(`O que foi digitado está salvo em ${join(dir, name as string)}`);
      expect(JSON.parse(readFileSync(join(dir, name as string), 'utf8'))).toMatchObject({ idProposta: 'PROP-1001' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
