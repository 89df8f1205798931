// A Prometheus metric whose values are read from plain numbers when /metrics is scraped, for the
// counters the request path bumps: prom-client's own Counter and Histogram validate and hash a label
// object on every call, while these cost a map lookup and an add. The Registry formats them exactly as
// it formats its own metrics.
import type { Metric } from 'prom-client'

export interface MetricValue {
  readonly labels: Readonly<Record<string, string | number>>
  readonly value: number
  readonly metricName?: string
}

/** A metric prom-client's Registry can format: it only calls `get()` and reads name, help and type. */
export function scrapedMetric(
  name: string,
  help: string,
  type: 'counter' | 'histogram',
  values: () => MetricValue[],
): Metric {
  const metric = {
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
  }
  // Registry.registerMetric is typed for prom-client's own classes; it needs no more than the above.
  return metric as unknown as Metric
}
