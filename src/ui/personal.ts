/**
 * A person's data that reaches a screen, a log or a --json document outside a message
 * (the service's `erros`, a webhook's reason or payload): masked as messages mask it
 * (src/redact.ts), unless the run reveals it (--reveal, docs/privacy.md).
 */
import { maskPersonal, maskPersonalJson, type PersonalKind } from '../redact.js';
import type { Voice } from '../i18n/index.js';

/** One value of a person's data (a CPF a command was given), masked by its kind. */
export function personalValue(voice: Pick<Voice, 'reveal'>, kind: PersonalKind, value: string): string {
  return voice.reveal ? value : maskPersonal(kind, value);
}

/** Free text from outside, with the CPFs, e-mails and phone numbers in it masked. */
export function personalText(voice: Pick<Voice, 'reveal'>, text: string): string;
export function personalText(voice: Pick<Voice, 'reveal'>, text: string | null): string | null;
export function personalText(voice: Pick<Voice, 'reveal'>, text: string | null): string | null {
  return text === null ? text : personalValue(voice, 'text', text);
}

/** A JSON value from outside (a webhook payload), each person's field masked by its kind. */
export function personalJson(voice: Pick<Voice, 'reveal'>, value: unknown): unknown {
  return voice.reveal ? value : maskPersonalJson(value);
}
