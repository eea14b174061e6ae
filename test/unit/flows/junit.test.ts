import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/errors.js';
import { junitXml } from '../../../src/flows/junit.js';
import type { SubmitResult } from '../../../src/domain/report.js';
import { msg } from '../../../src/i18n/index.js';

/** The XML as a conformant parser reads it: every element with its attributes and text; throws on a well-formedness error. */
function parseXml(xml: string): Array<{ name: string; attributes: Record<string, string>; text: string }> {
  const parser = new SaxesParser();
  const elements: Array<{ name: string; attributes: Record<string, string>; text: string }> = [];
  const open: Array<(typeof elements)[number]> = [];
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => {
    const element = { name: tag.name, attributes: tag.attributes as Record<string, string>, text: '' };
    elements.push(element);
    open.push(element);
  });
  parser.on('text', (text) => {
    const current = open.at(-1);
    if (current) current.text += text;
  });
  parser.on('closetag', () => void open.pop());
  parser.write(xml).close();
  return elements;
}

function result(overrides: Partial<SubmitResult>): SubmitResult {
  return {
    file: 'p.json',
    outcome: 'accepted',
    httpStatus: 202,
    idContrato: 'C-1',
    erros: [],
    result: null,
    message: msg('run.accepted', { id: 'C-1' }),
    exitCode: ExitCode.ok,
    warnings: [],
    errors: [],
    attempts: 1,
    idProposta: 'PROP-1',
    ...overrides,
  };
}

const options = { seconds: 1.5, timestamp: '2026-01-02T03:04:05.000Z', lang: 'en' } as const;

describe('junitXml', () => {
  it('is well-formed XML 1.0 when a file name and a service message hold control characters', () => {
    const xml = junitXml(
      [
        result({ file: 'in\u0001bound\u001b[31m.json' }),
        result({
          file: 'tab\there\nnewline.json',
          outcome: 'rejected',
          httpStatus: 422,
          idContrato: null,
          message: msg('run.rejectedOther', { status: 422, message: 'bad\u0007 "quoted" & <angled>' }),
          erros: [{ codigo: 'SVC_P00003', msg: 'bad\u0000value\u000b\r\nnext line' }],
          exitCode: ExitCode.rejected,
        }),
        result({ file: 'lone\ud800surrogate\uffff.json' }),
      ],
      options,
    );
    const elements = parseXml(xml);
    const cases = elements.filter((e) => e.name === 'testcase');
    expect(cases.map((c) => c.attributes.name)).toEqual([
      'in\\u0001bound\\u001b[31m.json',
      // Tab and newline are allowed; escaped in the attribute so a parser keeps them.
      'tab\there\nnewline.json',
      'lone\\ud800surrogate\\uffff.json',
    ]);
    const failure = elements.find((e) => e.name === 'failure');
    expect(failure?.attributes).toMatchObject({ type: 'rejected', message: '422 refused by the service: bad\\u0007 "quoted" & <angled>' });
    expect(failure?.text).toBe('SVC_P00003: bad\\u0000value\\u000b\r\nnext line');
    expect(elements.find((e) => e.name === 'testsuite')?.attributes).toMatchObject({ tests: '3', failures: '1' });
  });

  it('keeps plain text as it is', () => {
    const xml = junitXml([result({ file: 'ação/proposta 1.json', message: msg('run.alreadyAccepted', { when: 'às 10h', id: 'C-1' }) })], { ...options, lang: 'pt-BR' });
    const elements = parseXml(xml);
    expect(elements.find((e) => e.name === 'testcase')?.attributes.name).toBe('ação/proposta 1.json');
    expect(elements.find((e) => e.name === 'system-out')?.text).toBe('accepted: já aceita em às 10h: contrato C-1 (do registro local, não enviada de novo) (idContrato C-1)');
  });
});

describe('junitXml: skipped files and times', () => {
  it('a file not sent is a skipped case without another file\'s contract id; each case has its own time', () => {
    const xml = junitXml(
      [
        result({ file: 'a.json', elapsedMs: 1234 }),
        result({ file: 'b-copy.json', outcome: 'skipped', httpStatus: null, idContrato: 'C-OF-A', message: msg('run.alsoIn', { id: 'PROP-1', file: 'a.json' }), exitCode: ExitCode.rejected }),
        result({ file: 'c.json', outcome: 'rejected', httpStatus: 422, idContrato: null, message: msg('run.rejected', { status: 422, codes: 'SVC_V00001' }), exitCode: ExitCode.rejected, elapsedMs: 50 }),
      ],
      options,
    );
    const elements = parseXml(xml);
    const suite = elements.find((e) => e.name === 'testsuite');
    expect(suite?.attributes).toMatchObject({ tests: '3', failures: '1', skipped: '1' });
    const cases = elements.filter((e) => e.name === 'testcase');
    expect(cases.map((c) => c.attributes.time)).toEqual(['1.234', '0.000', '0.050']);
    expect(elements.filter((e) => e.name === 'skipped')).toHaveLength(1);
    expect(elements.filter((e) => e.name === 'failure')).toHaveLength(1);
    expect(xml).not.toContain('C-OF-A');
  });
});
