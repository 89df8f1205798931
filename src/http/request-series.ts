// Request counts and latency histograms per (method, route, status) in plain numbers, turned into
// Prometheus series only when /metrics is scraped. prom-client's Counter and Histogram validate and
// hash a label object on every inc/observe; here a request costs one string key, one map lookup and
// a bucket search, which matters at tens of thousands of requests per second.
import type { Registry } from 'prom-client'
import { scrapedMetric, type MetricValue } from './scraped-metric.ts'

interface Series {
  readonly labels: { readonly method: string; readonly route: string; readonly status: string }
  count: number
  sum: number
  /** Observations per bucket (not cumulative); the last slot counts those above every bound. */
  readonly perBucket: number[]
}

export interface RequestSeriesNames {
  readonly counter: { readonly name: string; readonly help: string }
  readonly histogram: { readonly name: string; readonly help: string; readonly buckets: readonly number[] }
}

export class RequestSeries {
  readonly #series = new Map<string, Series>()
  readonly #names: RequestSeriesNames

  constructor(names: RequestSeriesNames) {
    this.#names = names
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`
    let series = this.#series.get(key)
    if (series === undefined) {
      series = {
        labels: { method, route, status: String(status) },
        count: 0,
        sum: 0,
        perBucket: new Array<number>(this.#names.histogram.buckets.length + 1).fill(0),
      }
      this.#series.set(key, series)
    }
    series.count++
    series.sum += seconds
    const bounds = this.#names.histogram.buckets
    let slot = 0
    while (slot < bounds.length && seconds > bounds[slot]!) slot++
    series.perBucket[slot]!++
  }

  /** Adds the counter and the histogram to `registry` (they read the series at every scrape). */
  register(registry: Registry): void {
    const { counter, histogram } = this.#names
    registry.registerMetric(
      scrapedMetric(counter.name, counter.help, 'counter', () =>
        [...this.#series.values()].map((series) => ({ labels: series.labels, value: series.count })),
      ),
    )
    registry.registerMetric(
      scrapedMetric(histogram.name, histogram.help, 'histogram', () =>
        [...this.#series.values()].flatMap((series) => this.#histogramValues(series)),
      ),
    )
  }

  #histogramValues(series: Series): MetricValue[] {
    const { name, buckets } = this.#names.histogram
    const values: MetricValue[] = []
    let cumulative = 0
    buckets.forEach((bound, index) => {
      cumulative += series.perBucket[index]!
      values.push({ metricName: `${name}_bucket`, labels: { le: bound, ...series.labels }, value: cumulative })
    })
    values.push({ metricName: `${name}_bucket`, labels: { le: '+Inf', ...series.labels }, value: series.count })
    values.push({ metricName: `${name}_sum`, labels: series.labels, value: series.sum })
    values.push({ metricName: `${name}_count`, labels: series.labels, value: series.count })
    return values
  }
}
