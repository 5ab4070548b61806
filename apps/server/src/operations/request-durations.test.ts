import { describe, expect, it } from 'vitest';
import { requestDurations, statusClass } from './request-durations.ts';

describe('requestDurations', () => {
  it('writes a Prometheus histogram: cumulative buckets, +Inf, sum and count per label set', () => {
    const durations = requestDurations();
    durations.observe('GET', '/anime_merch_web/AppShare/goodsShare', 200, 0.004);
    durations.observe('GET', '/anime_merch_web/AppShare/goodsShare', 200, 0.005);
    durations.observe('GET', '/anime_merch_web/AppShare/goodsShare', 200, 0.3);
    durations.observe('GET', '/anime_merch_web/AppShare/goodsShare', 200, 12);
    durations.observe('POST', '/anime_merch_web/api/v1/events', 413, 0.002);
    const lines = durations.exposition().split('\n');
    const goods = 'method="GET",route="/anime_merch_web/AppShare/goodsShare",status_class="2xx"';
    expect(lines.slice(0, 2)).toEqual([
      '# HELP guquan_http_request_duration_seconds Time to answer a request, by route pattern, method and status class.',
      '# TYPE guquan_http_request_duration_seconds histogram',
    ]);
    // A value on a bound is in that bound's bucket (le: less than or equal).
    expect(lines).toContain(`guquan_http_request_duration_seconds_bucket{${goods},le="0.005"} 2`);
    expect(lines).toContain(`guquan_http_request_duration_seconds_bucket{${goods},le="0.25"} 2`);
    expect(lines).toContain(`guquan_http_request_duration_seconds_bucket{${goods},le="0.5"} 3`);
    expect(lines).toContain(`guquan_http_request_duration_seconds_bucket{${goods},le="10"} 3`);
    expect(lines).toContain(`guquan_http_request_duration_seconds_bucket{${goods},le="+Inf"} 4`);
    expect(lines).toContain(`guquan_http_request_duration_seconds_count{${goods}} 4`);
    expect(lines).toContain(`guquan_http_request_duration_seconds_sum{${goods}} 12.309`);
    expect(lines).toContain(
      'guquan_http_request_duration_seconds_count{method="POST",route="/anime_merch_web/api/v1/events",status_class="4xx"} 1',
    );
    expect(lines.at(-1)).toBe('');
  });

  it('escapes label values as the text format wants', () => {
    const durations = requestDurations();
    durations.observe('GET', 'a "quoted"\\route\nnext', 200, 0.001);
    expect(durations.exposition()).toContain('route="a \\"quoted\\"\\\\route\\nnext"');
  });

  it('names status classes by the first digit', () => {
    expect([101, 204, 304, 404, 503, 42].map(statusClass)).toEqual([
      '1xx',
      '2xx',
      '3xx',
      '4xx',
      '5xx',
      'other',
    ]);
  });
});
