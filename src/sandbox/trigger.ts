/**
 * `econsig sandbox trigger`: a result sent now, with data of one's own (Stripe's `trigger
 * --override`), to the sandbox's receiver. What the request to the sandbox carries, and the
 * payload it becomes. Pure: the server does the sending (webhook-sender.ts).
 */
import * as z from '../domain/zod.js';
import { FIELD_PATH, MAX_TIMES } from './trigger-fields.js';
import type { ResultPayload } from './webhook-sender.js';

export const TRIGGER_PATH = '/sandbox/v1/trigger';
/** The code of the sandbox's 404 for a contract it did not issue. */
export const UNKNOWN_CONTRACT_CODE = 'SVC_T00404';

export const TRIGGER_OUTCOMES = ['approved', 'denied', 'cancelled'] as const;
export type TriggerOutcome = (typeof TRIGGER_OUTCOMES)[number];

/** The service's status word of each outcome (docs/service.md; `CANCELADO` as the receiver reads it). */
const STATUS: Record<TriggerOutcome, string> = { approved: 'APROVADO', denied: 'REPROVADO', cancelled: 'CANCELADO' };


export const triggerRequestSchema = z
  .object({
    outcome: z.enum(TRIGGER_OUTCOMES),
    /** A contract the sandbox issued. */
    idContrato: z.string().min(1).optional(),
    /** A proposal: the sandbox creates its contract first. */
    idProposta: z.string().min(1).optional(),
    reason: z.string().optional(),
    /** Fields of the payload to set: a dotted path and any JSON value. */
    set: z.array(z.object({ path: z.string().regex(FIELD_PATH), value: z.unknown() })).default([]),
    /** The same event this many times, with the same webhook-id. */
    times: z.number().int().min(1).max(MAX_TIMES).default(1),
    /** The webhook-id to send it with (a retry of an earlier trigger's); default a new one. */
    webhookId: z.string().min(1).max(200).optional(),
    /** Another receiver than the sandbox's webhook URL (`events check --sandbox`). */
    to: z.string().url().optional(),
    /** Only the first attempt of each copy, no retries. */
    once: z.boolean().default(false),
    /** Signed with a secret the receiver does not have. */
    badSignature: z.boolean().default(false),
    /** Seconds added to the timestamp (negative: stale). */
    timestampOffsetSeconds: z.number().int().default(0),
  })
  .refine((r) => (r.idContrato === undefined) !== (r.idProposta === undefined), { message: 'give exactly one of idContrato, idProposta' });
export type TriggerRequest = z.infer<typeof triggerRequestSchema>;

/** What the sandbox answers: the event sent, and the first attempt of each copy (it stops at the first not answered 2xx). */
export interface TriggerAnswer {
  idContrato: string;
  idProposta: string;
  webhookId: string;
  attempts: Array<{ httpStatus: number | null; error: string | null; delivered: boolean }>;
}

/**
 * The event of a trigger: the contract's result with the outcome's status, the reason
 * (`--reason`, else the contract's own for a denial), then each `set` applied in order.
 */
export function triggerPayload(base: ResultPayload, request: Pick<TriggerRequest, 'outcome' | 'reason' | 'set'>): Record<string, unknown> {
  const motivo = request.reason ?? (request.outcome === 'approved' ? null : base.motivo);
  const payload: Record<string, unknown> = structuredClone({ ...base, status: STATUS[request.outcome], motivo });
  for (const { path, value } of request.set) setPath(payload, path, value);
  return payload;
}

/** Sets `value` at a dotted path, creating the objects on the way (an array index is a number). */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let at: Record<string, unknown> = target;
  for (const key of keys.slice(0, -1)) {
    const next = at[key];
    if (typeof next !== 'object' || next === null) at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  at[keys.at(-1)!] = value;
}
