// One attempt at one endpoint during a request, as reported in routing metadata and generation records.
export interface AttemptRecord {
  readonly model: string
  readonly provider: string
  readonly endpointId: string
  /** HTTP status of the attempt: 200 on success, the upstream's status, or 502/504 without one. */
  readonly status: number
  readonly latencyMs: number
  /**
   * Why a failed attempt failed (unreachable, timeout, rate_limited, overloaded, unavailable, upstream_5xx,
   * credentials_rejected, bad_response, other); absent on success and on records written before it existed.
   */
  readonly failure?: string
}
