// Live latency (time to first byte) and throughput (output tokens per second) per endpoint, as
// exponentially weighted moving averages; they feed `provider.sort`.

export interface EndpointStat {
  readonly latencyMs: number | null
  readonly tokensPerSecond: number | null
}

const weight = 0.2

export class EndpointStats {
  readonly #stats = new Map<string, { latencyMs: number | null; tokensPerSecond: number | null }>()

  recordLatency(endpointId: string, latencyMs: number): void {
    const stat = this.#entry(endpointId)
    stat.latencyMs = stat.latencyMs === null ? latencyMs : stat.latencyMs + weight * (latencyMs - stat.latencyMs)
  }

  recordThroughput(endpointId: string, outputTokens: number, generationMs: number): void {
    if (generationMs <= 0 || outputTokens <= 0) return
    const rate = (outputTokens * 1000) / generationMs
    const stat = this.#entry(endpointId)
    stat.tokensPerSecond =
      stat.tokensPerSecond === null ? rate : stat.tokensPerSecond + weight * (rate - stat.tokensPerSecond)
  }

  get(endpointId: string): EndpointStat {
    return this.#stats.get(endpointId) ?? { latencyMs: null, tokensPerSecond: null }
  }

  #entry(endpointId: string) {
    let stat = this.#stats.get(endpointId)
    if (stat === undefined) {
      stat = { latencyMs: null, tokensPerSecond: null }
      this.#stats.set(endpointId, stat)
    }
    return stat
  }
}
