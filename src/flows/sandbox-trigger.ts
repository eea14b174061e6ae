/**
 * `econsig sandbox trigger`: asks a running sandbox (sandbox/trigger.ts) to send a result now.
 * Which sandbox: `--sandbox`, else the one announced in this home (settings/sandbox-announce.ts);
 * its token: ECONSIG_TOKEN, else the announced one. Free of terminal I/O.
 */
import { request } from 'undici';
import { EconsigError, ExitCode, UsageError } from '../errors.js';
import { msg } from '../i18n/index.js';
import { TRIGGER_PATH, type TriggerAnswer, type TriggerRequest, UNKNOWN_CONTRACT_CODE } from '../sandbox/trigger.js';
import { readAnnouncement } from '../settings/sandbox-announce.js';

export interface TriggerTarget {
  url: string;
  token: string;
}

/** The sandbox to ask and its token; a usage error saying how to give them when neither is known. */
export function triggerTarget(home: string, flag: string | undefined, envToken: string | undefined): TriggerTarget {
  const announced = readAnnouncement(home);
  // `--sandbox http://127.0.0.1:4010/` names the sandbox announced as http://127.0.0.1:4010.
  const base = (text: string): string => text.replace(/\/+$/, '');
  const url = flag ?? announced?.url;
  if (url === undefined) throw new UsageError(msg('trigger.noSandbox', { home }), msg('trigger.noSandboxHint'));
  const token = envToken ?? (announced !== undefined && base(announced.url) === base(url) ? announced.token : undefined);
  if (token === undefined) throw new UsageError(msg('trigger.noToken', { url }), msg('trigger.noTokenHint'));
  return { url: base(url), token };
}

/** Sends the trigger and returns the sandbox's answer; a sandbox that refuses is an error with the contract's exit code. */
export async function sendTrigger(target: TriggerTarget, body: Partial<TriggerRequest>, timeoutMs = 60_000): Promise<TriggerAnswer> {
  let status: number;
  let answer: unknown;
  try {
    const res = await request(`${target.url}${TRIGGER_PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    status = res.statusCode;
    answer = await res.body.json().catch(() => null);
  } catch (error) {
    const cause = (error as { code?: string }).code ?? (error instanceof Error ? error.message : String(error));
    throw new EconsigError(msg('trigger.unreachable', { url: target.url, cause }), { exitCode: ExitCode.unavailable, hint: msg('trigger.unreachableHint'), cause: error });
  }
  if (status === 200 && isTriggerAnswer(answer)) return answer;
  if (status === 401) throw new EconsigError(msg('trigger.unauthorized', { url: target.url }), { exitCode: ExitCode.auth, hint: msg('trigger.unauthorizedHint') });
  const erros = (answer as { erros?: unknown } | null)?.erros;
  // Anything but a sandbox's answer (a watch, the service, a proxy's page): said so, never read as one.
  if (status === 200 || !Array.isArray(erros)) {
    throw new EconsigError(msg('trigger.notSandbox', { url: target.url, status }), { exitCode: ExitCode.unavailable, hint: msg('trigger.unreachableHint') });
  }
  const said = erros as Array<{ codigo?: string; msg?: string }>;
  if (status === 404 && body.idContrato !== undefined && said.some((e) => e.codigo === UNKNOWN_CONTRACT_CODE)) {
    throw new EconsigError(msg('trigger.unknownContract', { url: target.url, id: body.idContrato }), { exitCode: ExitCode.notFound, hint: msg('trigger.unknownContractHint') });
  }
  throw new UsageError(msg('trigger.refused', { url: target.url, status, detail: said.map((e) => e.msg ?? '').join('; ') }));
}

/** Whether a 200 is a sandbox's answer to a trigger: the copies' attempts and the webhook-id. */
function isTriggerAnswer(answer: unknown): answer is TriggerAnswer {
  const a = answer as Partial<TriggerAnswer> | null;
  return typeof a === 'object' && a !== null && Array.isArray(a.attempts) && typeof a.webhookId === 'string' && typeof a.idContrato === 'string';
}
