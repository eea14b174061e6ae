/** What `econsig sandbox trigger` shows: the event sent, and what the receiver answered to each copy. */
import type { TriggerAnswer } from '../sandbox/trigger.js';
import { say } from '../i18n/index.js';
import type { Io } from './io.js';
import { printable } from './printable.js';
import { createTheme } from './theme.js';
import { outcomeText } from './watch-output.js';

export function renderTriggered(io: Io, result: { outcome: string; times: number; answer: TriggerAnswer; ok: boolean }): void {
  const { answer } = result;
  if (io.json) {
    io.stdout.write(`${JSON.stringify({ ok: result.ok, outcome: result.outcome, ...answer })}\n`);
    return;
  }
  const t = createTheme(io);
  const lang = io.lang;
  const lines = [
    say(lang, 'trigger.sent', {
      outcome: outcomeText(lang, result.outcome, ''),
      contract: t.strong(printable(answer.idContrato)),
      webhookId: printable(answer.webhookId),
      n: answer.attempts.length,
      times: result.times,
    }),
    ...answer.attempts.map((a, i) =>
      a.httpStatus === null
        ? `  ${t.error(say(lang, 'trigger.attemptNoAnswer', { n: i + 1, error: printable(a.error ?? '') }))}`
        : `  ${(a.delivered ? t.success : t.error)(say(lang, 'trigger.attempt', { n: i + 1, status: a.httpStatus }))}`,
    ),
  ];
  if (!result.ok) lines.push(`${t.warning(say(lang, 'run.warningLabel'))} ${say(lang, 'trigger.notDelivered')}`);
  io.stderr.write(`${lines.join('\n')}\n`);
}
