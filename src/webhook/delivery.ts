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
}

/** Where the receiver keeps deliveries (the record, for one): durable before it answers 2xx. */
export interface DeliverySink {
  /** Shown by GET /healthz only to a caller holding the callback credentials (a path, or a database's host and user). */
  readonly location: string;
  /** `duplicate` when the same webhook-id or the same body is already kept. */
  recordDelivery(delivery: DeliveryRecord): Promise<'stored' | 'duplicate'>;
}
