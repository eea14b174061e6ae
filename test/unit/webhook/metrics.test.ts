import { describe, expect, it } from 'vitest';
import { createReceiverMetrics } from '../../../src/webhook/metrics.js';

/** Every sample line of the text format: name{labels} value (exposition format 0.0.4). */
const SAMPLE = /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\[\\"n])*",?)*\})? (-?[0-9.e+-]+|\+Inf|NaN)$/;

describe('receiver metrics', () => {
  it('counts by outcome and cause, and renders valid exposition text', () => {
    const m = createReceiverMetrics();
    m.delivery('approved');
    m.delivery('approved');
    m.delivery('duplicate');
    m.refused('bad-signature');
    m.refused('store-unavailable');
    m.storeError();
    m.observe(0.003, 200);
    m.observe(0.2, 503);
    const text = m.render({ ready: false, inFlight: 2 });
    for (const line of text.trimEnd().split('\n')) {
      if (line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
      expect(line).toMatch(SAMPLE);
    }
    expect(text).toContain('econsig_receiver_deliveries_total{outcome="approved"} 2');
    expect(text).toContain('econsig_receiver_deliveries_total{outcome="duplicate"} 1');
    expect(text).toContain('econsig_receiver_deliveries_total{outcome="denied"} 0');
    expect(text).toContain('econsig_receiver_refused_total{cause="bad-signature"} 1');
    expect(text).toContain('econsig_receiver_store_errors_total 1');
    expect(text).toContain('econsig_receiver_request_duration_seconds_bucket{code="2xx",le="0.0025"} 0');
    expect(text).toContain('econsig_receiver_request_duration_seconds_bucket{code="2xx",le="0.005"} 1');
    expect(text).toContain('econsig_receiver_request_duration_seconds_bucket{code="5xx",le="+Inf"} 1');
    expect(text).toContain('econsig_receiver_request_duration_seconds_count{code="5xx"} 1');
    expect(text).toContain('econsig_receiver_ready 0');
    expect(text).toContain('econsig_receiver_in_flight 2');
    expect(text.endsWith('\n')).toBe(true);
  });

  it('escapes label values', () => {
    const m = createReceiverMetrics();
    m.refused('a"b\\c\nd');
    expect(m.render()).toContain('econsig_receiver_refused_total{cause="a\\"b\\\\c\\nd"} 1');
  });
});
