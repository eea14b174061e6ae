/**
 * A scripted stand-in for the terminal prompts: each prompt takes the next answer queued
 * under its name (a field's dotted path, or 'menu', 'payout', 'save-path'...). An input
 * answer that fails the prompt's `validate` is recorded as the message shown under the
 * field, and the next queued answer is typed in its place, as a clerk would.
 */
import { PassThrough } from 'node:stream';
import type { Lang } from '../../../src/i18n/index.js';
import type { Io } from '../../../src/ui/io.js';
import { PromptCancelledError, type WizardPrompts } from '../../../src/ui/prompts.js';

export const CANCEL = Symbol('Ctrl-C');
/** Press Enter on the default (select/search/input). */
export const ENTER = Symbol('Enter');
export type Answer = string | typeof CANCEL | typeof ENTER;

export interface FakePrompts {
  prompts: WizardPrompts;
  /** Names of the prompts shown, in order. */
  asked: string[];
  /** Messages shown under a field after a wrong answer. */
  shown: { name: string; message: string }[];
  /** Defaults offered, by prompt name (last one wins). */
  defaults: Map<string, string | boolean | undefined>;
  /** Answers queued but never asked. */
  left(): string[];
}

export function fakePrompts(script: Record<string, Answer[]>): FakePrompts {
  const queues = new Map(Object.entries(script).map(([name, answers]) => [name, [...answers]]));
  const asked: string[] = [];
  const shown: { name: string; message: string }[] = [];
  const defaults = new Map<string, string | boolean | undefined>();
  const take = (name: string | undefined, fallback: string | boolean | undefined): Answer => {
    const key = name ?? '?';
    asked.push(key);
    defaults.set(key, fallback);
    const answer = queues.get(key)?.shift();
    if (answer === undefined) throw new Error(`unexpected prompt "${key}" (asked so far: ${asked.join(', ')})`);
    if (answer === CANCEL) throw new PromptCancelledError();
    return answer;
  };
  const prompts: WizardPrompts = {
    async input(o) {
      let answer = take(o.name, o.default);
      for (;;) {
        const typed = answer === ENTER ? (o.default ?? '') : (answer as string);
        const verdict = o.validate ? o.validate(typed) : true;
        if (verdict === true) return typed;
        shown.push({ name: o.name ?? '?', message: verdict });
        const next = queues.get(o.name ?? '?')?.shift();
        if (next === undefined) throw new Error(`"${o.name}" refused ${JSON.stringify(typed)} (${verdict}) and no correction is queued`);
        if (next === CANCEL) throw new PromptCancelledError();
        answer = next;
      }
    },
    async select(o) {
      const answer = take(o.name, o.default);
      const value = answer === ENTER ? (o.default ?? o.choices[0]?.value) : answer;
      const choice = o.choices.find((c) => c.value === value);
      if (!choice) throw new Error(`"${o.name}" has no choice ${String(value)}: ${o.choices.map((c) => c.value).join(', ')}`);
      return choice.value;
    },
    async search(o) {
      const answer = take(o.name, o.default);
      if (answer === ENTER && o.default !== undefined) return o.default;
      const first = o.source(answer === ENTER ? '' : (answer as string))[0];
      if (!first) throw new Error(`"${o.name}": nothing matches ${String(answer)}`);
      return first.value;
    },
    async confirm(o) {
      const answer = take(o.name, o.default);
      return answer === ENTER ? o.default === true : answer === 'y';
    },
  };
  return { prompts, asked, shown, defaults, left: () => [...queues].flatMap(([name, q]) => q.map(() => name)) };
}

export function fakeIo(canPrompt = true, lang: Lang = 'en'): Io & { text(): string } {
  const stderr = new PassThrough();
  const stdout = new PassThrough();
  let text = '';
  stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return {
    stdin: Object.assign(new PassThrough(), { isTTY: canPrompt }),
    stdout: Object.assign(stdout, { isTTY: canPrompt }),
    stderr: Object.assign(stderr, { isTTY: canPrompt }),
    canPrompt,
    canAnimate: false,
    color: false,
    colorStdout: false,
    json: false,
    verbose: false,
    reveal: false,
    lang,
    text: () => text,
  };
}

/** Answers for everything up to the payout choice: Maria, PROP-1001, RG, Avenida Paulista. */
export function personAnswers(): Record<string, Answer[]> {
  return {
    idProposta: ['PROP-1001'],
    'pessoa.naturalidade': ['São Paulo'],
    'pessoa.email': ['maria.silva@example.com'],
    'pessoa.telefone': ['(11) 91234-5678'],
    'pessoa.documento.tipoDocumento': ['RG'],
    'pessoa.documento.numero': ['12.345.678-9'],
    'pessoa.documento.orgaoExpedidor': ['SSP'],
    'pessoa.documento.uf': ['sp'],
    'pessoa.documento.dataDeEmissao': ['21/03/2015'],
    'pessoa.endereco.rua': ['Avenida Paulista'],
    'pessoa.endereco.numero': ['1578'],
    'pessoa.endereco.complemento': ['Apto 12'],
    'pessoa.endereco.bairro': ['Bela Vista'],
    'pessoa.endereco.cidade': ['São Paulo'],
    'pessoa.endereco.uf': ['São Paulo'],
    'pessoa.endereco.cep': ['01310-100'],
    'pessoa.estadoCivil': ['CASADO'],
  };
}
