/**
 * At 80 columns, long messages break between words (issue 14, point 7; a trial run found
 * `validate` of a sheet unwrapped): the built binary in a real 80x24 terminal (tmux), in
 * Portuguese, where the field-rule messages are the longest.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runInTerminal, skipTerminal } from './tmux-harness.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe.skipIf(skipTerminal)('long messages at 80 columns (tmux)', () => {
  it('validate of a CSV in pt-BR: no line over 80 columns, and every message reads whole when its lines are joined', async () => {
    const home = mkdtempSync(join(tmpdir(), 'econsig-width-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const csv = join(home, 'lote.csv');
    writeFileSync(
      csv,
      [
        'idProposta;Naturalidade;Número do documento;Órgão expedidor;UF de emissão;Data de emissão;Tipo de documento;Logradouro;Número;Bairro;Cidade;UF;CEP;Estado civil;E-mail;Telefone;Código do banco;Agência;Conta;Tipo de conta',
        'PROP-1001;São Paulo;123456789;SSP;SP;21/03/2015;RG;Avenida Paulista;1578;Bela Vista;São Paulo;SP;01310100;Casado(a);maria@example.com;+5511987654321;34;0123;12345-X;Conta corrente',
      ].join('\r\n'),
    );
    const run = runInTerminal(home, { LANG: 'pt_BR.UTF-8' }, `validate '${csv}'`, { cols: 80, rows: 24 });
    cleanups.push(run.cleanup);
    await run.waitExit(15_000);
    expect(run.exitCode()).toBe('1');
    const lines = run.term.pane(true).split('\n').map((line) => line.trimEnd());
    expect(lines.filter((line) => line.length > 80)).toEqual([]);
    const joined = lines.map((line) => line.trim()).join(' ');
    // Whole words of the two longest messages: broken mid-word they would not be found.
    expect(joined).toContain('deve ser o código do banco com 3 dígitos');
    expect(joined).toContain('confira com o banco o número da conta a enviar');
  }, 30_000);
});
