/**
 * The requests' duration histogram (`guquan_http_request_duration_seconds`), by method, route
 * pattern and status class, written in Prometheus' text format after the registry's metrics.
 *
 * Made here rather than with prom-client's Histogram because it is observed on every request:
 * prom-client checks and hashes a labels object on each observation (about 0.45 µs, a third of
 * what the metrics cost a cached share page in a CPU profile), where here a label set's buckets are
 * found with one Map lookup of a key built from the three values. Its labels come from bounded
 * sets (operations/route-label.ts), so the Map stays small.
 */

/** Request durations, from a cached page (a few ms) to a slow render (seconds). */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

const NAME = 'guquan_http_request_duration_seconds';
const HELP = 'Time to answer a request, by route pattern, method and status class.';

/** `1xx` … `5xx` by the status' first digit; anything else (never sent) as `other`. */
const STATUS_CLASSES = ['other', '1xx', '2xx', '3xx', '4xx', '5xx'];

export function statusClass(status: number): string {
  return STATUS_CLASSES[Math.floor(status / 100)] ?? 'other';
}

interface Series {
  /** The label pairs as written, e.g. `method="GET",route="/x",status_class="2xx"`. */
  labels: string;
  /** Observations per bucket (not cumulative), the last one beyond the largest bound. */
  counts: number[];
  sum: number;
  count: number;
}

/** A label value as the text format wants it: backslash, double quote and newline escaped. */
function escapeLabelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (char) => (char === '\n' ? '\\n' : `\\${char}`));
}

export interface RequestDurations {
  observe(method: string, route: string, status: number, seconds: number): void;
  /** The histogram in Prometheus' text format (0.0.4), ending with a newline. */
  exposition(): string;
}

export function requestDurations(): RequestDurations {
  const series = new Map<string, Series>();
  return {
    observe(method, route, status, seconds) {
      const statusLabel = statusClass(status);
      const key = `${method} ${statusLabel} ${route}`;
      let found = series.get(key);
      if (!found) {
        found = {
          labels: `method="${escapeLabelValue(method)}",route="${escapeLabelValue(route)}",status_class="${statusLabel}"`,
          counts: new Array<number>(DURATION_BUCKETS.length + 1).fill(0),
          sum: 0,
          count: 0,
        };
        series.set(key, found);
      }
      let bucket = 0;
      while (bucket < DURATION_BUCKETS.length && seconds > (DURATION_BUCKETS[bucket] ?? 0))
        bucket += 1;
      found.counts[bucket] = (found.counts[bucket] ?? 0) + 1;
      found.sum += seconds;
      found.count += 1;
    },
    exposition() {
      const lines = [`# HELP ${NAME} ${HELP}`, `# TYPE ${NAME} histogram`];
      for (const { labels, counts, sum, count } of series.values()) {
        let cumulative = 0;
        DURATION_BUCKETS.forEach((bound, index) => {
          cumulative += counts[index] ?? 0;
          lines.push(`${NAME}_bucket{${labels},le="${bound}"} ${cumulative}`);
        });
        lines.push(`${NAME}_bucket{${labels},le="+Inf"} ${count}`);
        lines.push(`${NAME}_sum{${labels}} ${sum}`);
        lines.push(`${NAME}_count{${labels}} ${count}`);
      }
      return `${lines.join('\n')}\n`;
    },
  };
}
