// The rule that bounds spend by what was reserved: one request is billed at most its reservation. A
// provider that reports more than the reserved allowance (output past `max_tokens`, thinking tokens on
// top) leaves the rest unbilled; it is recorded on the generation and counted, never charged to a scope.

export interface Charge {
  /** What the request's scopes are charged: the priced cost, at most the reservation. */
  readonly billedNano: bigint
  /** What the provider's reported usage priced above the reservation (0 when it fit). */
  readonly unbilledExcessNano: bigint
}

export function splitCharge(reservedNano: bigint, costNano: bigint): Charge {
  if (costNano <= reservedNano) return { billedNano: costNano, unbilledExcessNano: 0n }
  return { billedNano: reservedNano, unbilledExcessNano: costNano - reservedNano }
}
