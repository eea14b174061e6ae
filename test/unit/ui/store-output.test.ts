/**
 * The lines issue 22 added, in both languages: what opening the store did (spellings merged,
 * kept answers recorded), history's hint for an unknown entry, and `settle`'s line and
 * --json document.
 */
import { describe, expect, it } from 'vitest';
import type { HistoryPage, SubmissionRecord } from '../../../src/record/record.js';
import { renderHistory, renderStoreNotice } from '../../../src/ui/history-output.js';
import { captureIo } from './capture.js';
import { renderSettled } from '../../../src/ui/settle-output.js';
import { formatLocalTime } from '../../../src/i18n/index.js';

const capture = captureIo;

const record = (answer: SubmissionRecord['answer']): SubmissionRecord => ({
  ref: 'r1',
  idProposta: 'PROP-1001',
  service: 'http://127.0.0.1:4010',
  baseUrl: 'http://localhost:4010/',
  run: null,
  bodyHash: 'h',
  file: 'p.json',
  profile: 'default',
  sentAt: '2026-01-02T03:04:05.000Z',
  answer,
  result: null,
});
const answer = (outcome: string, idContrato: string | null) => ({ at: '2026-01-02T04:00:00.000Z', outcome, httpStatus: null, idContrato, erros: [], message: 'settled' });

describe('what opening the store did', () => {
  it.each([
    ['en', { kind: 'servicesMerged', proposals: 1, submissions: 3 }, 'note: the guard now knows a service however its base URL is spelled: 1 proposal sent under several spellings of one service (3 submissions) is now guarded as one'],
    ['pt-BR', { kind: 'servicesMerged', proposals: 1200, submissions: 2500 }, 'nota: a proteção contra envio duplicado agora reconhece um serviço qualquer que seja a grafia da URL base: 1.200 propostas enviadas com grafias diferentes do mesmo serviço (2.500 envios) agora são protegidas como uma só'],
    ['en', { kind: 'answersRecorded', report: { file: '/h/unrecorded-answers.jsonl', recorded: 2, left: 1 } }, 'note: recorded 2 answers kept in /h/unrecorded-answers.jsonl when the store failed; 1 line stays there (for another store, or unreadable)'],
    ['pt-BR', { kind: 'answersRecorded', report: { file: '/h/unrecorded-answers.jsonl', recorded: 1, left: 0 } }, 'nota: 1 resposta guardada em /h/unrecorded-answers.jsonl quando o registro local falhou foi registrada'],
  ] as const)('%s: %j', (lang, notice, line) => {
    const c = capture(lang);
    renderStoreNotice(c.io, notice);
    expect(c.stderr()).toBe(`${line}\n`);
  });
});

describe('history names econsig settle when it lists an unknown entry', () => {
  const page = (entries: SubmissionRecord[]): HistoryPage => ({ entries, more: 0, moreCap: 10_000, unreadable: [] });

  it.each([
    ['en', 'hint: An unknown submission was sent with no answer', 'econsig settle <idProposta> --contract <idContrato>'],
    ['pt-BR', 'dica: Um envio incerto foi enviado sem resposta', 'econsig settle <idProposta> --not-sent'],
  ] as const)('%s', (lang, said, command) => {
    for (const json of [false, true]) {
      const c = capture(lang, json);
      renderHistory(c.io, page([record(null)]));
      expect(c.stderr()).toContain(said);
      expect(c.stderr()).toContain(command);
    }
    const answered = capture(lang);
    renderHistory(answered.io, page([record(answer('accepted', 'C-1'))]));
    expect(answered.stderr()).not.toContain('econsig settle');
  });

  it('--json carries the base URL as spelled and the service the guard keys on', () => {
    const c = capture('en', true);
    renderHistory(c.io, page([record(answer('accepted', 'C-1'))]));
    expect(JSON.parse(c.stdout()).entries[0]).toMatchObject({ baseUrl: 'http://localhost:4010/', service: 'http://127.0.0.1:4010' });
  });
});

// People read the moment in the machine's zone with its offset (issue 24); --json keeps ISO UTC.
const SENT_LOCAL = formatLocalTime('2026-01-02T03:04:05.000Z');

describe('econsig settle says what it recorded', () => {
  it.each([
    ['en', 'C-9', `✓ recorded: proposal PROP-1001 has contract C-9 (its submission of ${SENT_LOCAL}); the same file is now reported from the store as accepted, not sent again`],
    ['pt-BR', 'C-9', `✓ registrado: a proposta PROP-1001 tem o contrato C-9 (envio de ${SENT_LOCAL}); o mesmo arquivo agora é informado pelo registro como aceito, sem novo envio`],
    ['en', null, `✓ recorded: proposal PROP-1001 was not sent (its submission of ${SENT_LOCAL}); the next run sends it`],
    ['pt-BR', null, `✓ registrado: a proposta PROP-1001 não foi enviada (envio de ${SENT_LOCAL}); a próxima execução a envia`],
  ] as const)('%s, contract %s', (lang, contract, line) => {
    const c = capture(lang);
    renderSettled(c.io, record(answer(contract ? 'accepted' : 'skipped', contract)));
    expect(c.stderr()).toBe(`${line}\n`);
    expect(c.stdout()).toBe('');
  });

  it('--json: one document, English field names in any language', () => {
    const c = capture('pt-BR', true);
    renderSettled(c.io, record(answer('accepted', 'C-9')));
    expect(JSON.parse(c.stdout())).toEqual({ ok: true, idProposta: 'PROP-1001', outcome: 'accepted', idContrato: 'C-9', sentAt: '2026-01-02T03:04:05.000Z', file: 'p.json', service: 'http://127.0.0.1:4010' });
    expect(c.stderr()).toBe('');
  });
});
