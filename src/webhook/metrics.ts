/**
 * The receiver's `/metrics` in the Prometheus text exposition format (version 0.0.4):
 * deliveries by outcome, refusals by cause, store errors and request latency.
 *
 * Written by hand rather than with prom-client: four metric families need counters, one
 * histogram and a text writer (about 80 lines), while prom-client adds 35-50 ms to the start
 * of `watch` on this machine and 4.6 MB of dependencies (@opentelemetry/api, bintrees,
 * tdigest) for summaries, gauges with collectors, cluster aggregation and default process
 * metrics that the receiver does not use.
 */

/** Upper bounds of the latency histogram, in seconds (a 2xx must leave well under 5 s). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export type DeliveryOutcomeLabel = 'approved' | 'denied' | 'cancelled' | 'unknown' | 'duplicate';

export interface ReceiverMetrics {
  delivery(outcome: DeliveryOutcomeLabel): void;
  /** A delivery answered 4xx/5xx: the cause is the label (bad-signature, not-json, store-unavailable...). */
  refused(cause: string): void;
  storeError(): void;
  /** Seconds from the request's arrival to its answer, for POSTs on the webhook path. */
  observe(seconds: number, status: number): void;
  /** The text of GET /metrics. */
  render(extra?: { ready: boolean; inFlight: number }): string;
}

/** Label values are escaped as the format says: backslash, double quote and newline. */
const escapeLabel = (value: string): string => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** Prometheus floats: integers stay integers, +Inf spelt as the format wants. */
const num = (n: number): string => (n === Infinity ? '+Inf' : Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(12))));

export function createReceiverMetrics(): ReceiverMetrics {
  const deliveries = new Map<string, number>([
    ['approved', 0],
    ['denied', 0],
    ['cancelled', 0],
    ['unknown', 0],
    ['duplicate', 0],
  ]);
  const refusals = new Map<string, number>();
  let storeErrors = 0;
  // Cumulative counts per bucket per status class (2xx, 4xx, 5xx).
  const latency = new Map<string, { buckets: number[]; count: number; sum: number }>();
  const bump = (map: Map<string, number>, key: string): void => void map.set(key, (map.get(key) ?? 0) + 1);

  return {
    delivery: (outcome) => bump(deliveries, outcome),
    refused: (cause) => bump(refusals, cause),
    storeError: () => void storeErrors++,
    observe(seconds, status) {
      const code = `${Math.floor(status / 100)}xx`;
      let h = latency.get(code);
      if (!h) latency.set(code, (h = { buckets: LATENCY_BUCKETS.map(() => 0), count: 0, sum: 0 }));
      for (let i = 0; i < LATENCY_BUCKETS.length; i++) if (seconds <= LATENCY_BUCKETS[i]!) h.buckets[i]!++;
      h.count++;
      h.sum += seconds;
    },
    render(extra) {
      const lines: string[] = [];
      const family = (name: string, type: string, help: string): void => void lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);

      family('econsig_receiver_deliveries_total', 'counter', 'Deliveries stored and answered 2xx, by outcome (duplicate: recognised and answered 2xx again).');
      for (const [outcome, n] of deliveries) lines.push(`econsig_receiver_deliveries_total{outcome="${escapeLabel(outcome)}"} ${n}`);

      family('econsig_receiver_refused_total', 'counter', 'Deliveries answered 4xx or 5xx, by cause.');
      for (const [cause, n] of [...refusals].sort()) lines.push(`econsig_receiver_refused_total{cause="${escapeLabel(cause)}"} ${n}`);

      family('econsig_receiver_store_errors_total', 'counter', 'Writes or reads of the store that failed.');
      lines.push(`econsig_receiver_store_errors_total ${storeErrors}`);

      family('econsig_receiver_request_duration_seconds', 'histogram', 'Time from a delivery\'s arrival to its answer.');
      for (const [code, h] of [...latency].sort()) {
        LATENCY_BUCKETS.forEach((le, i) => lines.push(`econsig_receiver_request_duration_seconds_bucket{code="${code}",le="${num(le)}"} ${h.buckets[i]}`));
        lines.push(`econsig_receiver_request_duration_seconds_bucket{code="${code}",le="+Inf"} ${h.count}`);
        lines.push(`econsig_receiver_request_duration_seconds_sum{code="${code}"} ${num(h.sum)}`);
        lines.push(`econsig_receiver_request_duration_seconds_count{code="${code}"} ${h.count}`);
      }

      if (extra) {
        family('econsig_receiver_ready', 'gauge', '1 while deliveries can be stored (GET /readyz 200), else 0.');
        lines.push(`econsig_receiver_ready ${extra.ready ? 1 : 0}`);
        family('econsig_receiver_in_flight', 'gauge', 'Deliveries being handled now.');
        lines.push(`econsig_receiver_in_flight ${extra.inFlight}`);
      }
      return `${lines.join('\n')}\n`;
    },
  };
}
