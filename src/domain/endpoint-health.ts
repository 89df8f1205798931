// The live health of one provider endpoint as this gateway instance has seen it: its circuit breaker
// and the attempts of the last five minutes.

export type CircuitState = 'closed' | 'open' | 'half_open'

export interface EndpointHealth {
  readonly provider: string
  readonly model: string
  readonly endpointId: string
  readonly circuitState: CircuitState
  readonly requests5m: number
  /** Failed attempts / attempts over the window; null without attempts. */
  readonly errorRate5m: number | null
  readonly latencyP50Ms: number | null
  readonly latencyP99Ms: number | null
}
