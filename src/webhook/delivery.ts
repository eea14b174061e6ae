/**
 * A webhook delivery as the receiver saw it. The receiver owns this shape; whoever keeps
 * deliveries (the record) is handed them through a function and imports this type.
 */

import type { WebhookOutcome } from './extract.js';

/** One webhook delivery, as the listener received it. */
export interface DeliveryRecord {
  receivedAt: string;
  webhookId: string | null;
  /** sha256 of the raw body: the same body twice is one delivery. */
  bodyHash: string;
  idContrato: string | null;
  idProposta: string | null;
  status: string | null;
  outcome: WebhookOutcome;
  reason: string | null;
  verified: boolean | null;
  /** The body as received (JSON text). */
  payload: string;
  /**
   * The request's headers as received, those that carry a secret redacted (redact.ts,
   * redactHeaders); absent when none were kept (an old journal's delivery).
   */
  headers?: Readonly<Record<string, string>>;
}

/** What became of relaying a delivery to the app (`watch --forward-to`): kept so `events resend` can replay a failed one. */
export interface ForwardRecord {
  at: string;
  url: string;
  /** The app's answer; null when none came (refused, timed out). */
  httpStatus: number | null;
  error: string | null;
}

/**
 * What became of a delivery handed to the sink (the same webhook-id or the same body is the
 * same delivery). `stored`: kept now, for the first time; the receiver shows it, then says so
 * (`markShown`). `duplicate`: kept and shown before, or being shown by another caller of this
 * sink. `showing`: kept a moment ago by another process, which is showing it: ask again
 * shortly. `unshown`: kept but left unshown (the answer to its write was lost, or the
 * receiver stopped before showing it): it is now this caller's to show, and no one else's.
 */
export type DeliveryFate = 'stored' | 'duplicate' | 'showing' | 'unshown';

/** Where the receiver keeps deliveries (the record, for one): durable before it answers 2xx. */
export interface DeliverySink {
  /** Shown by GET /healthz only to a caller holding the callback credentials (a path, or a database's host and user). */
  readonly location: string;
  /**
   * Rejects when the delivery was not kept. A write whose commit's fate is unknown (the
   * connection broke during COMMIT, a timeout after the statement was sent) is looked up
   * before this settles: found, it is kept, and said as a duplicate would be.
   */
  recordDelivery(delivery: DeliveryRecord): Promise<DeliveryFate>;
  /** The receiver has shown this stored delivery (by its body hash): a retry of it is a duplicate from now on. */
  markShown(bodyHash: string): Promise<void>;
  /** What the app answered when the delivery (by its body hash) was relayed to it. */
  recordForward(bodyHash: string, forward: ForwardRecord): Promise<void>;
  /** Resolves while deliveries can be stored now, rejects when they cannot (the database does not answer, the disk is full): GET /readyz. */
  ping(): Promise<void>;
}
